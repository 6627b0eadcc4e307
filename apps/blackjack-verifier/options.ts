import { BlackjackRules, rulesFor } from '../../libs/games/src/blackjack/core';
import { generateStrategy } from '../../libs/games/src/blackjack/strategy/table';
import { rulesLabel, strategyRulesOf } from '../../libs/games/src/blackjack/strategy/rules';

/**
 * The rule options the original sheets lost (split limit, double after split, surrender timing,
 * peek), each combination valued by the EV generator with its own basic strategy. The published
 * RTPs (Infinite 99.46%, Lux 99.53%) are matched against these returns.
 */
export interface OptionRow {
  readonly label: string;
  readonly rules: BlackjackRules;
  readonly returnPct: number;
}

export const PUBLISHED = { infinite: 99.46, lux: 99.53 } as const;

export function optionCombinations(): BlackjackRules[] {
  const out: BlackjackRules[] = [];
  for (const peek of [true, false])
    for (const maxHands of [2, 4])
      for (const doubleAfterSplit of [true, false])
        for (const surrender of ['none', 'late', 'early'] as const) {
          out.push(rulesFor('lux', { peek, maxHands, doubleAfterSplit, surrender }));
        }
  return out;
}

export function optionTable(log: (line: string) => void): OptionRow[] {
  const rows: OptionRow[] = [];
  log(
    'Main-game return by rule option (8 decks, S17, 3:2, double any two; EV generator, its own basic strategy):',
  );
  log('  peek     split-limit  DAS  surrender   return     vs Infinite 99.46  vs Lux 99.53');
  for (const rules of optionCombinations()) {
    const g = generateStrategy(strategyRulesOf(rules));
    const returnPct = 100 * (1 + g.tableReturn);
    rows.push({ label: rulesLabel(strategyRulesOf(rules)), rules, returnPct });
    log(
      `  ${(rules.peek ? 'peek' : 'no-peek').padEnd(8)} ${String(rules.maxHands).padEnd(12)} ${(rules.doubleAfterSplit ? 'yes' : 'no').padEnd(4)} ${rules.surrender.padEnd(10)} ${returnPct.toFixed(3)}%   ${signed(returnPct - PUBLISHED.infinite)}            ${signed(returnPct - PUBLISHED.lux)}`,
    );
  }
  log('');
  logOptionEffects(rows, log);
  return rows;
}

/** One option changed, everything else equal: the mean and range of the return's change. */
export interface OptionEffect {
  readonly change: string;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly pairs: number;
}

const OPTION_CHANGES: readonly {
  change: string;
  from: Partial<BlackjackRules>;
  to: Partial<BlackjackRules>;
}[] = [
  { change: 'split limit 2 -> 4 hands', from: { maxHands: 2 }, to: { maxHands: 4 } },
  {
    change: 'double after split no -> yes',
    from: { doubleAfterSplit: false },
    to: { doubleAfterSplit: true },
  },
  { change: 'surrender none -> late', from: { surrender: 'none' }, to: { surrender: 'late' } },
  { change: 'surrender none -> early', from: { surrender: 'none' }, to: { surrender: 'early' } },
  { change: 'peek -> no peek (all stakes lost)', from: { peek: true }, to: { peek: false } },
];

export function optionEffects(rows: readonly OptionRow[]): OptionEffect[] {
  const key = (r: BlackjackRules): string =>
    `${r.peek}|${r.maxHands}|${r.doubleAfterSplit}|${r.surrender}`;
  const byKey = new Map(rows.map((r) => [key(r.rules), r.returnPct]));
  return OPTION_CHANGES.map(({ change, from, to }) => {
    const diffs: number[] = [];
    for (const r of rows) {
      const matches = Object.entries(from).every(
        ([k, v]) => r.rules[k as keyof BlackjackRules] === v,
      );
      if (!matches) continue;
      const other = byKey.get(key({ ...r.rules, ...to }));
      if (other !== undefined) diffs.push(other - r.returnPct);
    }
    return {
      change,
      mean: diffs.reduce((a, b) => a + b, 0) / diffs.length,
      min: Math.min(...diffs),
      max: Math.max(...diffs),
      pairs: diffs.length,
    };
  });
}

export function logOptionEffects(rows: readonly OptionRow[], log: (line: string) => void): void {
  log('How each option moves the main-game return (other options held equal; mean [min .. max]):');
  for (const e of optionEffects(rows)) {
    log(
      `  ${e.change.padEnd(36)} ${signed(e.mean)} points  [${signed(e.min)} .. ${signed(e.max)}] over ${e.pairs} pairs`,
    );
  }
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}
