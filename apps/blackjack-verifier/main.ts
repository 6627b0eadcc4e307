import { resolve } from 'node:path';
import { rulesFor } from '../../libs/games/src/blackjack/core/rules';
import { strategyRulesOf } from '../../libs/games/src/blackjack/strategy/rules';
import { generateStrategy } from '../../libs/games/src/blackjack/strategy/table';
import { crossCheckInfinite } from './crosscheck-infinite';
import { crossCheckLux } from './crosscheck-lux';
import { generateStrategyFiles } from './generate-strategy';
import { optionTable } from './options';
import { verify } from './verify';

/**
 * Blackjack verification tool (compiled to dist/apps/blackjack-verifier/main.js).
 *   verify [--rounds N] [--engine-rounds N] [--engine-seconds S] [--seed N] [--skip-options]
 *          [--games a,b]
 *                        simulate every main game and print every bet's RTP with a 95% interval,
 *                        the exact side-bet returns and the rule-option table (npm run verify:blackjack)
 *   options              only the rule-option table
 *   generate-strategy    rewrite the generated strategy tables (npm run strategy:generate)
 *   crosscheck-infinite [--rounds N] [--seed N] [--das yes|no]
 *                        the same shoes through the Infinite engine and the fast simulator
 *   crosscheck-lux [--rounds N] [--seed N] [--das yes|no]   the same for the Lux engine
 */
function main(argv: string[]): void {
  const [command = 'verify', ...rest] = argv;
  // REPO_ROOT lets a private build write the generated tables into a checkout.
  const repoRoot = process.env.REPO_ROOT ?? resolve(__dirname, '../../..');
  const flag = (name: string): string | undefined => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const log = (line: string): void => console.log(line);
  switch (command) {
    case 'generate-strategy':
      generateStrategyFiles(repoRoot);
      return;
    case 'options':
      optionTable(log);
      return;
    case 'verify':
      verify({
        rounds: Number(flag('rounds') ?? 100_000_000),
        engineRounds: Number(flag('engine-rounds') ?? 1_000_000),
        engineSeconds: Number(flag('engine-seconds') ?? Infinity),
        seed: Number(flag('seed') ?? 1),
        skipOptions: rest.includes('--skip-options'),
        games: (flag('games') ?? 'infinite,lux,european').split(',') as (
          'european' | 'infinite' | 'lux'
        )[],
        log,
      });
      return;
    case 'crosscheck-infinite': {
      const rules = rulesFor('infinite', { doubleAfterSplit: flag('das') !== 'no' });
      const strategy = generateStrategy(strategyRulesOf(rules)).table;
      const rounds = Number(flag('rounds') ?? 100_000);
      const started = Date.now();
      const r = crossCheckInfinite(rules, strategy, rounds, Number(flag('seed') ?? 1));
      log(
        `Infinite engine vs fast simulator, ${strategy.label}: ${r.rounds.toLocaleString('en-US')} rounds in ${((Date.now() - started) / 1000).toFixed(0)} s, ${r.mismatches} round(s) differ`,
      );
      for (const [bet, [engine, sim]] of Object.entries(r.sums)) {
        log(`  ${bet.padEnd(11)} net per unit summed: engine ${engine}, simulator ${sim}`);
      }
      for (const m of r.firstMismatches) log(`  ${m}`);
      return;
    }
    case 'crosscheck-lux': {
      const rules = rulesFor('lux', { doubleAfterSplit: flag('das') !== 'no' });
      const strategy = generateStrategy(strategyRulesOf(rules)).table;
      const rounds = Number(flag('rounds') ?? 100_000);
      const started = Date.now();
      const r = crossCheckLux(rules, strategy, rounds, Number(flag('seed') ?? 1));
      log(
        `Lux engine vs fast simulator, ${strategy.label}: ${r.rounds.toLocaleString('en-US')} rounds in ${((Date.now() - started) / 1000).toFixed(0)} s, ${r.mismatches} round(s) differ; ${r.dealerSkipped} round(s) where the engine's dealer did not draw for lack of a live hand`,
      );
      for (const [bet, [engine, sim]] of Object.entries(r.sums)) {
        log(`  ${bet.padEnd(11)} net per unit summed: engine ${engine}, simulator ${sim}`);
      }
      for (const m of r.firstMismatches) log(`  ${m}`);
      return;
    }
    default:
      console.error(`unknown command "${command}" (verify | options | generate-strategy)`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2));
