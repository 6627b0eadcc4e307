import { CardCode, cardCode, cardFromIndex } from '@studio/cards';
import { isRejected } from '../../libs/games/src/blackjack/core/engine';
import { currentHandIndex, legalActions } from '../../libs/games/src/blackjack/core/player-hands';
import { BlackjackRules } from '../../libs/games/src/blackjack/core/rules';
import { tableDecision } from '../../libs/games/src/blackjack/bots/bots';
import {
  currentSeat,
  luxExpectedCard,
  LuxInput,
  LuxState,
  newLuxTable,
  stepLux,
} from '../../libs/games/src/blackjack/lux';
import { seededRandom } from '../../libs/games/src/blackjack/strategy/seeded-random';
import { emptyTotals } from '../../libs/games/src/blackjack/strategy/simulation-totals';
import { BlackjackSimulator } from '../../libs/games/src/blackjack/strategy/simulator';
import { StrategyTable } from '../../libs/games/src/blackjack/strategy/table';
import { CrossCheckResult } from './crosscheck-infinite';

/**
 * Plays the same shoes through the Blackjack Lux engine (one seated player with a seat bet and a
 * pair bet, deciding with the strategy table, declining insurance) and through the fast
 * simulator, and compares the main and pair results of every round. The Lux dealer does not draw
 * when no hand is left to beat, the simulator always completes the dealer's hand: those rounds
 * use fewer cards (counted apart), and the simulator continues from the engine's shoe position.
 */
export function crossCheckLux(
  rules: BlackjackRules,
  strategy: StrategyTable,
  rounds: number,
  seed: number,
): CrossCheckResult & { dealerSkipped: number } {
  const sim = new BlackjackSimulator(
    { rules, strategy, burn: true, sideBets: true },
    seededRandom(seed),
  );
  let state: LuxState = newLuxTable({ rules });
  const totals = emptyTotals();
  const sums: Record<string, [number, number]> = {};
  const firstMismatches: string[] = [];
  let mismatches = 0;
  let dealerSkipped = 0;
  const step = (input: LuxInput): void => {
    const r = stepLux(state, input);
    if (isRejected(r)) throw new Error(`lux engine rejected ${input.type}: ${r.rejected.message}`);
    state = r.state;
  };
  for (let round = 1; round <= rounds; round += 1) {
    if (sim.position >= Math.floor(sim.shoe.length * 0.75)) sim.shuffle();
    const start = sim.position;
    let next = start;
    step({ type: 'open-betting', roundId: `r${round}`, roundOfShoe: 1, balances: { p: 1e9 } });
    if (round === 1) {
      step({
        type: 'take-seat',
        seat: 1,
        account: { playerId: 'p', demo: false, funCurrency: false },
      });
    }
    step({ type: 'seat-bet', seat: 1, playerId: 'p', main: 100, pairs: 100 });
    step({ type: 'close-betting' });
    for (let guard = 0; state.phase !== 'settled' && guard < 200; guard += 1) {
      if (luxExpectedCard(state)) {
        const card: CardCode = cardCode(cardFromIndex(sim.shoe[next++]));
        step({ type: 'card', card });
      } else if (state.phase === 'insurance') {
        step({ type: 'insurance', seat: 1, playerId: 'p', take: false });
        step({ type: 'close-window' });
      } else if (state.phase === 'playing') {
        const seat = currentSeat(state)!;
        const i = currentHandIndex(seat);
        const legal = legalActions(seat.hands[i], { handCount: seat.hands.length }, rules);
        const action = tableDecision(strategy, {
          rules,
          seat: 1,
          dealerUp: state.dealer.up!,
          hands: seat.hands.map((h) => ({
            cards: h.cards,
            fromSplit: h.fromSplit,
            doubled: h.doubled,
          })),
          currentHand: i,
          legalActions: legal,
          otherSeats: [],
        });
        step({ type: 'decision', seat: 1, playerId: 'p', action });
      } else {
        throw new Error(`lux engine stuck in phase ${state.phase}`);
      }
    }
    const records = state.settlement!.records.filter(
      (r) => r.playerId === 'p' && r.role === 'seat',
    );
    const net = (bet: string): number =>
      records.filter((r) => r.bet === bet).reduce((x, r) => x + r.paid + r.refunded - r.staked, 0) /
      100;
    const engine = { main: net('main'), 'lux-pairs': net('pairs') };
    const pairsBefore = totals['lux-pairs'].sum;
    const result = { main: 0, insurance: NaN };
    sim.position = start;
    sim.playRound(result, totals);
    const simulated = { main: result.main, 'lux-pairs': totals['lux-pairs'].sum - pairsBefore };
    let differs = false;
    for (const k of ['main', 'lux-pairs'] as const) {
      sums[k] = [(sums[k]?.[0] ?? 0) + engine[k], (sums[k]?.[1] ?? 0) + simulated[k]];
      if (engine[k] !== simulated[k]) differs = true;
    }
    if (sim.position !== next) {
      if (sim.position < next)
        differs = true; // the engine may only use fewer cards
      else dealerSkipped += 1;
    }
    if (differs) {
      mismatches += 1;
      if (firstMismatches.length < 5) {
        firstMismatches.push(
          `round ${round}: engine ${JSON.stringify(engine)} cards ${next - start}; simulator ${JSON.stringify(simulated)} cards ${sim.position - start}; dealer ${state.settlement!.dealerCards.join(' ')}`,
        );
      }
    }
    sim.position = next; // continue from the engine's shoe position
  }
  return { rounds, mismatches, firstMismatches, sums, dealerSkipped };
}
