/**
 * Throughput of the blackjack verification tool's simulation: rounds and player hands per second
 * of the fast simulator (typed arrays, precomputed strategy and side-bet tables), and of the
 * European practice table's real engine with a hard bot. Prints figures; asserts nothing.
 */
import { rulesFor } from '../libs/games/src/blackjack/core/rules';
import { exactStrategyFor } from '../libs/games/src/blackjack/bots/bots';
import { seededRandom } from '../libs/games/src/blackjack/strategy/seeded-random';
import { SideBetTables } from '../libs/games/src/blackjack/strategy/side-bet-tables';
import { emptyTotals } from '../libs/games/src/blackjack/strategy/simulation-totals';
import { BlackjackSimulator } from '../libs/games/src/blackjack/strategy/simulator';
import { simulateEuropeanEngine } from '../apps/blackjack-verifier/verify';

const ROUNDS = 5_000_000;
const ENGINE_ROUNDS = 50_000;

const tables = new SideBetTables();
for (const variant of ['infinite', 'lux', 'european-practice'] as const) {
  const rules = rulesFor(variant);
  const sideBets = variant !== 'european-practice';
  const sim = new BlackjackSimulator(
    { rules, strategy: exactStrategyFor(rules), burn: sideBets, sideBets },
    seededRandom(42),
    tables,
  );
  sim.run(200_000, emptyTotals()); // warm-up
  const handsBefore = sim.handsPlayed;
  const started = process.hrtime.bigint();
  sim.run(ROUNDS, emptyTotals());
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const hands = sim.handsPlayed - handsBefore;
  console.log(
    `fast simulator ${variant.padEnd(17)} ${ROUNDS.toLocaleString('en-US')} rounds in ${seconds.toFixed(2)} s: ` +
      `${Math.round(ROUNDS / seconds).toLocaleString('en-US')} rounds/s, ` +
      `${Math.round(hands / seconds).toLocaleString('en-US')} hands/s${sideBets ? ' (side bets measured too)' : ''}`,
  );
}

const rules = rulesFor('european-practice');
const started = process.hrtime.bigint();
simulateEuropeanEngine(rules, ENGINE_ROUNDS, 42, null);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(
  `real engine  european-practice ${ENGINE_ROUNDS.toLocaleString('en-US')} rounds in ${seconds.toFixed(2)} s: ` +
    `${Math.round(ENGINE_ROUNDS / seconds).toLocaleString('en-US')} rounds/s (stepEuropean + hard bot from its view)`,
);
