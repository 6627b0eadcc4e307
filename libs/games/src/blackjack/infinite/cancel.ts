import { event, reject } from '../core/engine';
import { indexOfPlayer } from './player-index';
import { INFINITE_SIDE_BETS, InfiniteSideBet, InfiniteState } from './state';
import { InfiniteStep } from './step';
import { emptySide } from './table';

/**
 * A player's bet taken back while betting is open (the platform's CancelBet): the player leaves
 * the round's columns (no hand, no settlement), and is remembered so that the same player does not
 * bet again in this round (a bet is stored under the round and the player: it is placed once).
 */
export function cancelBet(state: InfiniteState, playerId: string): InfiniteStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const at = indexOfPlayer(state.players.ids, playerId);
  if (at < 0) {
    return state.cancelled?.includes(playerId)
      ? reject('bet-already-cancelled', `${playerId}'s bet was cancelled before`)
      : reject('unknown-bet', `${playerId} has no bet in this round`);
  }
  const p = state.players;
  const without = <T>(column: readonly T[]): T[] => column.filter((_, i) => i !== at);
  const side = emptySide<number[]>(() => []);
  const parts: Partial<Record<InfiniteSideBet, number>> = {};
  for (const k of INFINITE_SIDE_BETS) {
    side[k] = without(p.side[k]);
    if (p.side[k][at] > 0) parts[k] = p.side[k][at];
  }
  const next: InfiniteState = {
    ...state,
    players: {
      ids: without(p.ids),
      main: without(p.main),
      side,
      insurance: without(p.insurance),
      node: without(p.node),
      pending: without(p.pending),
    },
    cancelled: [...(state.cancelled ?? []), playerId],
  };
  return {
    state: next,
    effects: [event('bet-cancelled', { playerId, main: p.main[at], side: parts })],
  };
}
