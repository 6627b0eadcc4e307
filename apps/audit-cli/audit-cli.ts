import { VerifyEventChain } from '../../src/audit/verify-event-chain.use-case';
import { RoundVerdict, VerifyRoundReplay } from '../../src/audit/verify-round-replay.use-case';
import { historyReader } from '../../src/history/reader/history-reader';
import type { HistoryQuery } from '../../src/history/reader/history-query';

export const USAGE = `Usage:
  npm run audit:verify-replay -- --round <roundId>
  npm run audit:verify-replay -- --from <ISO time> --to <ISO time> [--table <tableId>]
  npm run audit:verify-chain [-- --table <tableId>]
Add --json for machine-readable output. Reads DATABASE_URL. Exit code 0 when everything
verifies, 1 when a round does not replay to its stored result or a chain is broken, 2 on misuse.`;

export class UsageError extends Error {}

function options(argv: readonly string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') out.json = true;
    else if (/^--(round|from|to|table)$/.test(arg) && argv[i + 1] !== undefined) {
      out[arg.slice(2)] = argv[(i += 1)];
    } else throw new UsageError(`Unknown or incomplete argument "${arg}"`);
  }
  return out;
}

function time(name: string, value: string | true | undefined): Date {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw new UsageError(`--${name} needs an ISO 8601 time`);
  return new Date(t);
}

function describe(v: RoundVerdict): string {
  const head = `round ${v.roundId} (${v.tableId}, ${v.game})`;
  switch (v.verdict) {
    case 'match':
      return `MATCH     ${head}: ${v.settlements} settlement(s) as stored`;
    case 'skipped':
      return `SKIPPED   ${head}: ${v.reason}`;
    case 'replay-failed':
      return `FAILED    ${head}: the engine refused ${v.step}: ${v.code}: ${v.message}`;
    case 'mismatch':
      return [
        `MISMATCH  ${head}:`,
        ...v.mismatches.map(
          (m) =>
            `  ${m.field}: stored ${JSON.stringify(m.stored)}, replay gives ${JSON.stringify(m.replayed)}`,
        ),
      ].join('\n');
  }
}

/**
 * The audit CLI's commands over one query function, so tests run them against their database and
 * main.ts against DATABASE_URL. Returns the process exit code.
 */
export async function runAuditCli(
  command: string,
  argv: readonly string[],
  q: HistoryQuery,
  write: (line: string) => void,
): Promise<number> {
  const opts = options(argv);
  const json = opts.json === true;
  if (command === 'verify-replay') {
    const replay = new VerifyRoundReplay(historyReader(q));
    if (typeof opts.round === 'string') {
      const verdict = await replay.round(opts.round);
      write(json ? JSON.stringify(verdict) : describe(verdict));
      return verdict.verdict === 'match' || verdict.verdict === 'skipped' ? 0 : 1;
    }
    const table = typeof opts.table === 'string' ? opts.table : undefined;
    const result = await replay.range(time('from', opts.from), time('to', opts.to), table);
    if (json) write(JSON.stringify(result));
    else {
      for (const v of result.failed) write(describe(v));
      write(
        `${result.rounds} round(s) started in [${result.from}, ${result.to}): ${result.matched} match, ${result.skipped} skipped (not completed), ${result.failed.length} failed`,
      );
    }
    return result.failed.length === 0 ? 0 : 1;
  }
  if (command === 'verify-chain') {
    const chain = new VerifyEventChain(historyReader(q));
    const verdicts =
      typeof opts.table === 'string' ? [await chain.table(opts.table)] : await chain.all();
    for (const v of verdicts) {
      if (json) write(JSON.stringify(v));
      else if (v.intact) write(`INTACT    ${v.tableId}: ${v.events} event(s) chained`);
      else {
        const b = v.firstBrokenLink!;
        write(
          `BROKEN    ${v.tableId}: first broken link at event_no ${b.eventNo} (row id ${b.rowId}): ${b.reason}, expected ${b.expected}, found ${b.found}; ${v.events} event(s) before it verify`,
        );
      }
    }
    return verdicts.every((v) => v.intact) ? 0 : 1;
  }
  throw new UsageError(`Unknown command "${command}"`);
}
