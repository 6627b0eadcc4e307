import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BlackjackRules, rulesFor } from '../../libs/games/src/blackjack/core';
import { strategyRulesOf } from '../../libs/games/src/blackjack/strategy/rules';
import { generateStrategy, tableSource } from '../../libs/games/src/blackjack/strategy/table';

/** The variants whose exact basic strategy is kept as a generated data file. */
export const GENERATED_TABLES: readonly {
  file: string;
  constName: string;
  rules: BlackjackRules;
}[] = [
  {
    file: 'european-all-stakes',
    constName: 'EUROPEAN_ALL_STAKES_STRATEGY',
    rules: rulesFor('european-practice'),
  },
  {
    file: 'european-original-bets-only',
    constName: 'EUROPEAN_ORIGINAL_BETS_ONLY_STRATEGY',
    rules: rulesFor('european-practice', { noPeekDealerBlackjack: 'original-bets-only' }),
  },
  { file: 'infinite', constName: 'INFINITE_STRATEGY', rules: rulesFor('infinite') },
  { file: 'lux', constName: 'LUX_STRATEGY', rules: rulesFor('lux') },
];

/** `strategy:generate`: recomputes every table from its rules and rewrites the data files. */
export function generateStrategyFiles(repoRoot: string): void {
  for (const t of GENERATED_TABLES) {
    const started = Date.now();
    const generated = generateStrategy(strategyRulesOf(t.rules));
    const path = resolve(repoRoot, 'libs/games/src/blackjack/strategy/generated', `${t.file}.ts`);
    writeFileSync(path, tableSource(t.constName, generated, 'npm run strategy:generate'));
    console.log(
      `${t.file}: ${generated.table.label}, table return ${(100 * (1 + generated.tableReturn)).toFixed(4)}%` +
        ` (composition-optimal first decision ${(100 * (1 + generated.compositionReturn)).toFixed(4)}%)` +
        `, ${Date.now() - started} ms -> ${path}`,
    );
  }
}
