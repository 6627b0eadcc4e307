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
  return rows;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}
