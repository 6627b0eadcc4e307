import { resolve } from 'node:path';
import { generateStrategyFiles } from './generate-strategy';
import { optionTable } from './options';

/**
 * Blackjack verification tool.
 *   node dist/apps/blackjack-verifier/main.js generate-strategy   rewrite the strategy tables
 */
function main(argv: string[]): void {
  const [command] = argv;
  // Compiled to dist/apps/blackjack-verifier/main.js; REPO_ROOT lets a private build write here too.
  const repoRoot = process.env.REPO_ROOT ?? resolve(__dirname, '../../..');
  switch (command) {
    case 'generate-strategy':
      generateStrategyFiles(repoRoot);
      return;
    case 'options':
      optionTable((line) => console.log(line));
      return;
    default:
      console.error(`unknown command "${command}"`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2));
