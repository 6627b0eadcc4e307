import { CardCode, cardCode, cardFromIndex } from '@studio/cards';
import { isRejected } from '../../libs/games/src/blackjack/core/engine';
import { PlayerAction } from '../../libs/games/src/blackjack/core/player-hands';
import { BlackjackRules } from '../../libs/games/src/blackjack/core/rules';
import { tableDecision } from '../../libs/games/src/blackjack/bots/bots';
import {
  infiniteExpectedCard,
  InfiniteInput,
  infinitePlayerView,
  InfiniteState,
  newInfiniteTable,
  stepInfinite,
} from '../../libs/games/src/blackjack/infinite';
import { seededRandom } from '../../libs/games/src/blackjack/strategy/seeded-random';
import {
  emptyTotals,
  SimulatedBet,
} from '../../libs/games/src/blackjack/strategy/simulation-totals';
import { BlackjackSimulator } from '../../libs/games/src/blackjack/strategy/simulator';
import { StrategyTable } from '../../libs/games/src/blackjack/strategy/table';

const SIDE = ['pairs', 'bust-bonus', 'lucky-trio', 'poker-trio'] as const;

export interface CrossCheckResult {
  readonly rounds: number;
  /** Rounds whose main or side-bet result, or number of cards used, differs. */
  readonly mismatches: number;
  readonly firstMismatches: readonly string[];
  /** Net result per unit summed over the rounds: engine, simulator. */
  readonly sums: Readonly<Record<string, [number, number]>>;
}

/**
 * Plays the same shoes through the Infinite Blackjack engine (one player with a main bet and every
 * side bet, deciding with the strategy table from the player view, declining insurance) and through
 * the fast simulator, and compares every round.
 */
export function crossCheckInfinite(
  rules: BlackjackRules,
  strategy: StrategyTable,
  rounds: number,
  seed: number,
): CrossCheckResult {
  const sim = new BlackjackSimulator(
    { rules, strategy, burn: true, sideBets: true },
    seededRandom(seed),
  );
  let state: InfiniteState = newInfiniteTable({ rules });
  const totals = emptyTotals();
  const sums: Record<string, [number, number]> = {};
  const firstMismatches: string[] = [];
  let mismatches = 0;
  const step = (input: InfiniteInput): void => {
    const r = stepInfinite(state, input);
    if (isRejected(r))
      throw new Error(`infinite engine rejected ${input.type}: ${r.rejected.message}`);
    state = r.state;
  };
  for (let round = 1; round <= rounds; round += 1) {
    if (sim.position >= Math.floor(sim.shoe.length * 0.75)) sim.shuffle();
    const start = sim.position;
    let next = start;
    step({ type: 'open-betting', roundId: `r${round}`, roundOfShoe: 1 });
    step({
      type: 'bet',
      playerId: 'p',
      main: 100,
      side: { pairs: 100, 'bust-bonus': 100, 'lucky-trio': 100, 'poker-trio': 100 },
    });
    step({ type: 'close-betting' });
    for (let guard = 0; state.phase !== 'settled' && guard < 200; guard += 1) {
      if (infiniteExpectedCard(state)) {
        const card: CardCode = cardCode(cardFromIndex(sim.shoe[next++]));
        step({ type: 'card', card });
      } else if (state.phase === 'insurance') {
        step({ type: 'decision', playerId: 'p', action: 'no-insurance' });
        step({ type: 'close-window' });
      } else if (state.phase === 'deciding') {
        const view = infinitePlayerView(state, 'p').player!;
        if (view.legalActions.length > 0) {
          const action: PlayerAction = tableDecision(strategy, {
            rules,
            seat: 1,
            dealerUp: state.dealer.up!,
            hands: view.hands.map((h) => ({
              cards: h.cards,
              fromSplit: view.hands.length > 1,
              doubled: false,
            })),
            currentHand: view.currentHand,
            legalActions: view.legalActions,
            otherSeats: [],
          });
          step({ type: 'decision', playerId: 'p', action });
        }
        step({ type: 'close-window' });
      } else {
        throw new Error(`infinite engine stuck in phase ${state.phase}`);
      }
    }
    const t = state.settlement!.totals;
    const engine: Record<string, number> = {
      main: (t.main.paid + t.main.refunded - t.main.staked) / 100,
    };
    for (const k of SIDE) engine[k] = (t[k].paid + t[k].refunded - t[k].staked) / 100;
    const before = Object.fromEntries(SIDE.map((k) => [k, totals[k].sum]));
    const result = { main: 0, insurance: NaN };
    sim.position = start;
    sim.playRound(result, totals);
    const simulated: Record<string, number> = { main: result.main };
    for (const k of SIDE) simulated[k] = totals[k as SimulatedBet].sum - before[k];
    let differs = sim.position !== next;
    for (const k of Object.keys(engine)) {
      sums[k] = [(sums[k]?.[0] ?? 0) + engine[k], (sums[k]?.[1] ?? 0) + simulated[k]];
      if (engine[k] !== simulated[k]) differs = true;
    }
    if (differs) {
      mismatches += 1;
      if (firstMismatches.length < 5) {
        firstMismatches.push(
          `round ${round}: engine ${JSON.stringify(engine)} cards ${next - start}; simulator ${JSON.stringify(simulated)} cards ${sim.position - start}; player ${state.playerCards.join(' ')} dealer ${state.settlement!.dealerCards.join(' ')} draws ${state.commonDraws.join(' ')}`,
        );
      }
      sim.position = next; // resynchronise on the engine's cards
    }
  }
  return { rounds, mismatches, firstMismatches, sums };
}
