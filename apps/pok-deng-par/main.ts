import { writeFileSync } from 'node:fs';
import { POK_DENG_RULES } from '@studio/games/pok-deng';
import { BetReport, computeParSheet, Fraction, ParSheet, percent } from './par';

/**
 * Prints the exact return (PAR sheet) of the Pok Deng Player N and Player N Pair bets.
 *   npm run par:pok-deng
 *   npm run par:pok-deng -- --json par.json     also write the sheet as JSON
 *   npm run par:pok-deng -- --decks 6           another shoe size
 */

interface Options {
  json?: string;
  decks?: number;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json' && argv[i + 1]) options.json = argv[(i += 1)];
    else if (arg === '--decks' && /^[1-9]\d*$/.test(argv[i + 1] ?? '')) {
      options.decks = Number(argv[(i += 1)]);
    } else {
      throw new Error(`Unknown or incomplete argument "${arg}" (use --json <file>, --decks <n>)`);
    }
  }
  return options;
}

const signed = (f: Fraction): string => `${f.numerator}/${f.denominator}`;

function table(title: string, report: BetReport<string>): string {
  const rows = report.outcomes.map((o) => [
    o.outcome,
    o.netPerUnitBet > 0 ? `+${o.netPerUnitBet}` : String(o.netPerUnitBet),
    String(o.ways),
    o.probability.decimal,
    percent(o.probability, 4),
  ]);
  const header = ['outcome', 'net/bet', 'ways', 'probability', '%'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ');
  return [
    title,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `  deducted per unit bet             ${report.deductedPerUnitBet}`,
    `  expected net per unit bet         ${percent(report.expectedNetPerUnitBet, 4)}  (${signed(report.expectedNetPerUnitBet)})`,
    `  return per unit bet               ${percent(report.returnPerUnitBet, 4)}  (${signed(report.returnPerUnitBet)})`,
    `  expected net per unit deducted    ${percent(report.expectedNetPerUnitDeducted, 4)}  (${signed(report.expectedNetPerUnitDeducted)})`,
    `  return per unit deducted (RTP)    ${percent(report.returnPerUnitDeducted, 4)}  = ${percent(report.returnPerUnitDeducted, 2)} to two decimals`,
    `  variance of net per unit bet      ${report.variancePerUnitBet.decimal}`,
  ].join('\n');
}

function render(sheet: ParSheet): string {
  return [
    `Pok Deng exact return: ${sheet.deckCount} decks (${sheet.cardsInShoe} cards), every ordered draw of`,
    `Player N's two cards and the Banker's two without replacement: ${sheet.totalWays} ways.`,
    '',
    table('Player N (bet + equal deposit deducted)', sheet.playerBet),
    '',
    table('Player N Pair (11:1, no deposit)', sheet.pairBet),
    '',
  ].join('\n');
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const sheet = computeParSheet(POK_DENG_RULES, options.decks);
  const millis = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(render(sheet));
  process.stdout.write(`(enumerated in ${millis.toFixed(0)} ms)\n`);
  if (options.json) {
    writeFileSync(options.json, `${JSON.stringify(sheet, null, 2)}\n`);
    process.stdout.write(`JSON written to ${options.json}\n`);
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
