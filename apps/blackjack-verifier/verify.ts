import { cardIndex, parseCardCode } from '@studio/cards';
import { isRejected } from '../../libs/games/src/blackjack/core/engine';
import { BlackjackRules, rulesFor } from '../../libs/games/src/blackjack/core/rules';
import { playBotTurns } from '../../libs/games/src/blackjack/european/bot-runner';
import { newEuropeanTable } from '../../libs/games/src/blackjack/european/engine';
import { EuropeanState } from '../../libs/games/src/blackjack/european/state';
import { stepEuropean } from '../../libs/games/src/blackjack/european/shoe-driver';
import { seededRandomSource, shuffledShoe } from '../../libs/games/src/blackjack/european/random';
import { rulesLabel, strategyRulesOf } from '../../libs/games/src/blackjack/strategy/rules';
import { exactSideBetReturns } from '../../libs/games/src/blackjack/strategy/side-bet-returns';
import { seededRandom } from '../../libs/games/src/blackjack/strategy/seeded-random';
import { SideBetTables } from '../../libs/games/src/blackjack/strategy/side-bet-tables';
import {
  BetStats,
  emptyTotals,
  returnWithInterval,
  SimulatedBet,
  SimulationTotals,
} from '../../libs/games/src/blackjack/strategy/simulation-totals';
import { BlackjackSimulator } from '../../libs/games/src/blackjack/strategy/simulator';
import { generateStrategy, StrategyTable } from '../../libs/games/src/blackjack/strategy/table';
import { exactStrategyFor } from '../../libs/games/src/blackjack/bots/bots';
import { OptionRow, optionTable, PUBLISHED } from './options';

export interface VerifyOptions {
  /** Rounds per main game through the fast simulator. */
  readonly rounds: number;
  /** Rounds of the European table through the real engine (hard bot). */
  readonly engineRounds: number;
  /** Stop the real-engine run after this many seconds even if fewer rounds were played. */
  readonly engineSeconds: number;
  readonly seed: number;
  /** Skip the option table and simulate the given rules for Infinite and Lux. */
  readonly skipOptions: boolean;
  readonly games: readonly ('european' | 'infinite' | 'lux')[];
  readonly log: (line: string) => void;
}

const pct = (x: number, digits = 3): string => `${(100 * x).toFixed(digits)}%`;

function formatStats(name: string, s: BetStats, exact?: number): string {
  const { rtp, halfWidth95 } = returnWithInterval(s);
  const interval = `${pct(rtp)} ± ${pct(halfWidth95)} (95%: ${pct(rtp - halfWidth95)} .. ${pct(rtp + halfWidth95)})`;
  const exactText =
    exact === undefined
      ? ''
      : `   exact ${pct(exact, 4)}${Math.abs(exact - rtp) <= halfWidth95 ? ' (inside)' : ' (OUTSIDE)'}`;
  return `  ${name.padEnd(11)} ${String(s.n).padStart(11)} bets  RTP ${interval}${exactText}`;
}

/**
 * What games.md still fixes about the lost options: surrender is one of the actions of both games
 * (§2, §3), and Lux ends the round at once on a dealer BJ (§3 "Early end"), which needs a peek.
 */
export const OPTION_CONSTRAINTS = {
  infinite: (r: BlackjackRules) => r.surrender !== 'none',
  lux: (r: BlackjackRules) => r.surrender !== 'none' && r.peek,
} as const;

/** The rule combination whose calculated return is closest to the published figure. */
export function matchPublished(
  rows: readonly OptionRow[],
  published: number,
  allowed: (r: BlackjackRules) => boolean = () => true,
): OptionRow {
  return rows
    .filter((r) => allowed(r.rules))
    .reduce((best, r) =>
      Math.abs(r.returnPct - published) < Math.abs(best.returnPct - published) ? r : best,
    );
}

/** Agreement tolerance in percentage points: the figures' last digit plus the calculation's. */
export const AGREEMENT = 0.02;

/** Simulates `rounds` rounds, printing progress every tenth. */
export function simulate(
  rules: BlackjackRules,
  strategy: StrategyTable,
  rounds: number,
  seed: number,
  sideBets: boolean,
  log: (line: string) => void,
  tables?: SideBetTables,
): SimulationTotals {
  const sim = new BlackjackSimulator(
    { rules, strategy, burn: rules.variant !== 'european-practice', sideBets },
    seededRandom(seed),
    tables,
  );
  const totals = emptyTotals();
  const chunk = Math.max(1, Math.floor(rounds / 10));
  const started = Date.now();
  for (let done = 0; done < rounds;) {
    const n = Math.min(chunk, rounds - done);
    sim.run(n, totals);
    done += n;
    const s = (Date.now() - started) / 1000;
    const { rtp, halfWidth95 } = returnWithInterval(totals.main);
    log(
      `  progress ${rules.variant}: ${done.toLocaleString('en-US')} / ${rounds.toLocaleString('en-US')} rounds, ${s.toFixed(0)} s, ${Math.round(done / s).toLocaleString('en-US')} rounds/s, main ${pct(rtp)} ± ${pct(halfWidth95)}`,
    );
  }
  return totals;
}

/** The European table through its real engine: one hard bot seat, seeded virtual shoes. */
export function simulateEuropeanEngine(
  rules: BlackjackRules,
  rounds: number,
  seed: number,
  crossCheck: BlackjackSimulator | null,
  budget: { seconds: number; progress?: (done: number, stats: BetStats) => void } = {
    seconds: Infinity,
  },
): { stats: BetStats; mismatches: number } {
  const deadline = Date.now() + budget.seconds * 1000;
  let s: EuropeanState = newEuropeanTable({ rules });
  const stats: BetStats = { n: 0, sum: 0, sumSquares: 0 };
  const random = seededRandomSource(seed);
  const result = { main: 0, insurance: NaN };
  let mismatches = 0;
  for (let r = 0; r < rounds; r += 1) {
    if (r % 1_000_000 === 0 && r > 0) {
      budget.progress?.(r, stats);
      if (Date.now() > deadline) break;
    }
    if (!s.shoe || s.shoe.next >= s.config.cutCardAt) {
      const order = shuffledShoe(rules.decks, random);
      const loaded = stepEuropean(s, {
        type: 'load-shoe',
        order,
        shuffle: { method: 'fisher-yates', source: 'seeded', seed },
      });
      if (isRejected(loaded)) throw new Error(loaded.rejected.message);
      s = loaded.state;
      crossCheck?.load(order.map((c) => cardIndex(parseCardCode(c)!)));
    }
    const started = stepEuropean(s, {
      type: 'start-round',
      bets: [{ seat: 1, occupant: { kind: 'bot', difficulty: 'hard' }, stake: 100 }],
    });
    if (isRejected(started)) throw new Error(started.rejected.message);
    s = playBotTurns(started.state).state;
    const score = s.round!.seats[0].score!;
    stats.n += 1;
    stats.sum += score;
    stats.sumSquares += score * score;
    if (crossCheck) {
      crossCheck.playRound(result);
      if (result.main !== score || crossCheck.position !== s.shoe!.next) mismatches += 1;
    }
  }
  return { stats, mismatches };
}

export function verify(o: VerifyOptions): void {
  const { log } = o;
  log(`Blackjack verification - ${new Date().toISOString()}, node ${process.version}`);
  log(
    `Simulation: ${o.rounds.toLocaleString('en-US')} rounds per main game, seed ${o.seed}, cut card at 75% of the shoe, burn procedure on 8-deck shoes, one position playing the exact basic strategy of its rules.`,
  );

  // 1. Exact side-bet returns.
  log('');
  log('Exact side-bet returns, 8 decks (every card combination through the side-bet evaluators;');
  log(
    'Bust Bonus: exact recursive enumeration of the dealer drawing from a full 8-deck shoe, S17):',
  );
  const exact = exactSideBetReturns(8);
  const exactByName = new Map(exact.map((e) => [e.name, e.exact.rtp]));
  for (const e of exact) {
    const patterns = Object.entries(e.exact.patterns)
      .map(([k, p]) => `${k} ${p.toFixed(8)}`)
      .join(', ');
    log(`  ${e.name.padEnd(11)} RTP ${pct(e.exact.rtp, 4)}   (${patterns})`);
  }

  // 2. Option table and the combinations matching the published figures.
  let infiniteRules = rulesFor('infinite');
  let luxRules = rulesFor('lux');
  if (!o.skipOptions) {
    log('');
    const rows = optionTable(log);
    const inf = matchPublished(rows, PUBLISHED.infinite, OPTION_CONSTRAINTS.infinite);
    const lux = matchPublished(rows, PUBLISHED.lux, OPTION_CONSTRAINTS.lux);
    log('');
    const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
    for (const [name, row, published] of [
      ['Infinite (surrender offered)', inf, PUBLISHED.infinite],
      ['Lux (surrender offered, peek for the early end)', lux, PUBLISHED.lux],
    ] as const) {
      const diff = row.returnPct - published;
      log(
        `Closest to ${published}% for ${name}: ${row.label} = ${row.returnPct.toFixed(3)}% (${signed(diff)})` +
          (Math.abs(diff) <= AGREEMENT
            ? ` - agrees within ${AGREEMENT}`
            : ` - does NOT agree within ${AGREEMENT}`),
      );
      const near = rows.filter((r) => Math.abs(r.returnPct - published) <= AGREEMENT);
      log(
        `  all combinations within ${AGREEMENT} of ${published}%: ${near.map((r) => `${r.label} ${r.returnPct.toFixed(3)}%`).join('; ') || 'none'}`,
      );
    }
    infiniteRules = { ...inf.rules, variant: 'infinite' };
    luxRules = { ...lux.rules, variant: 'lux' };
  }

  // 3. Main games.
  const sideTables = new SideBetTables();
  const games: [string, BlackjackRules, SimulatedBet[]][] = [];
  if (o.games.includes('infinite'))
    games.push([
      'Infinite Blackjack',
      infiniteRules,
      ['main', 'insurance', 'pairs', 'bust-bonus', 'lucky-trio', 'poker-trio'],
    ]);
  if (o.games.includes('lux'))
    games.push(['Blackjack Lux', luxRules, ['main', 'insurance', 'lux-pairs']]);
  if (o.games.includes('european'))
    games.push(['European practice', rulesFor('european-practice'), ['main']]);
  for (const [i, [name, rules, bets]] of games.entries()) {
    log('');
    const generated = generateStrategy(strategyRulesOf(rules), { played: true });
    log(
      `${name}: rules ${rulesLabel(strategyRulesOf(rules))}; EV generator return ${pct(1 + generated.tableReturn)}` +
        ` (best play after the first decision), ${pct(1 + generated.playedReturn!)} (table followed throughout)`,
    );
    const totals = simulate(
      rules,
      generated.table,
      o.rounds,
      o.seed + i,
      rules.variant !== 'european-practice',
      log,
      sideTables,
    );
    log(`${name} - simulation result (${o.rounds.toLocaleString('en-US')} rounds):`);
    for (const b of bets) log(formatStats(b, totals[b], exactByName.get(b)));
  }

  // 4. The European table through the real engine, cross-checked against the fast simulator.
  if (o.games.includes('european') && o.engineRounds > 0) {
    const rules = rulesFor('european-practice');
    const cross = new BlackjackSimulator(
      { rules, strategy: exactStrategyFor(rules) },
      seededRandom(0),
    );
    const started = Date.now();
    log('');
    log(
      `European practice through the real engine (stepEuropean + hard bot from its view), up to ${o.engineRounds.toLocaleString('en-US')} rounds or ${o.engineSeconds} s:`,
    );
    const { stats, mismatches } = simulateEuropeanEngine(rules, o.engineRounds, o.seed, cross, {
      seconds: o.engineSeconds,
      progress: (done, st) => {
        const { rtp, halfWidth95 } = returnWithInterval(st);
        const el = (Date.now() - started) / 1000;
        log(
          `  progress engine: ${done.toLocaleString('en-US')} rounds, ${el.toFixed(0)} s, ${Math.round(done / el).toLocaleString('en-US')} rounds/s, main ${pct(rtp)} ± ${pct(halfWidth95)}`,
        );
      },
    });
    const s = (Date.now() - started) / 1000;
    log(
      `European practice through the real engine - result (${stats.n.toLocaleString('en-US')} rounds in ${s.toFixed(0)} s):`,
    );
    log(formatStats('main', stats));
    log(
      `  fast simulator replaying the same shoes: ${mismatches} round(s) differ in result or cards used`,
    );
  }
}
