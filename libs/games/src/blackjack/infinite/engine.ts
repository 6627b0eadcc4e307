import { closeBetting, openBetting, placeBet, placeBets } from './betting';
import { cancelBet } from './cancel';
import { applyCard } from './cards';
import { closeWindow, decide, timeout } from './decisions';
import { voidRound } from './round-end';
import { InfiniteState } from './state';
import { InfiniteInput, InfiniteStep } from './step';

/**
 * Infinite Blackjack (games.md §2): one shared card sequence, any number of players.
 *
 * Scale: players who made the same decisions hold the same hand, so hands live in a decision
 * trie (`nodes`) and a player is just a node id in a column. A card is applied once per live
 * node, never per player; a decision window is closed with one pass over the columns.
 * Inputs that touch many players come in batches (`bets`, `decisions`) so a window costs one
 * copy of a column, not one per player.
 */

export type {
  InfiniteBatchRejection,
  InfiniteBetInput,
  InfiniteDecision,
  InfiniteDecisionInput,
  InfiniteEffect,
  InfiniteInput,
  InfiniteStep,
} from './step';
export { validateInfiniteBet } from './betting';
export { infiniteDealerCards, infiniteExpectedCard } from './expected-card';
export type { InfiniteExpectedCard } from './expected-card';
export { infiniteNodePath, newInfiniteTable } from './table';

export function stepInfinite(state: InfiniteState, input: InfiniteInput): InfiniteStep {
  switch (input.type) {
    case 'open-betting':
      return openBetting(state, input.roundId, input.roundOfShoe);
    case 'bet':
      return placeBet(state, input);
    case 'bets':
      return placeBets(state, input.bets);
    case 'cancel-bet':
      return cancelBet(state, input.playerId);
    case 'close-betting':
      return closeBetting(state);
    case 'card':
      return applyCard(state, input.card);
    case 'decision':
      return decide(state, [input], true);
    case 'decisions':
      return decide(state, input.decisions, false);
    case 'close-window':
      return closeWindow(state);
    case 'timeout':
      return timeout(state, input.timer, input.window);
    case 'void':
      return voidRound(state, input.reason);
  }
}
