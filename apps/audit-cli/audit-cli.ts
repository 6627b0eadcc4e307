import { topicName } from '@studio/contracts';
import { AnchorVerdict, anchorFailed, ChainCheckpoint } from '../../src/audit/event-chain-walk';
import {
  AnchoredChainVerdict,
  TableChainVerdict,
  VerifyEventChain,
} from '../../src/audit/verify-event-chain/verify-event-chain.use-case';
import {
  RoundVerdict,
  VerifyRoundReplay,
} from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import { historyReader } from '../../src/history/reader/history-reader';
import type { HistoryQuery } from '../../src/history/reader/history-query';

export const USAGE = `Usage:
  npm run audit:verify-replay -- --round <roundId>
  npm run audit:verify-replay -- --from <ISO time> --to <ISO time> [--table <tableId>]
  npm run audit:verify-chain [-- --table <tableId>]
  npm run audit:verify-chain -- --kafka-brokers <host:port,...> [--topic <events topic> | --topic-prefix <prefix>]
Add --json for machine-readable output. Reads DATABASE_URL (and KAFKA_TOPIC_PREFIX as the default
prefix). With --kafka-brokers every table's chain is also checked against the newest chain head
published on the events topic (a round event's envelope "chain" or a ChainCheckpoint): "anchored up
to N" and the events after N not published yet, or the events deleted up to N (docs/chain.md). Exit code 0 when everything verifies, 1 when a
round does not replay to its stored result, a chain is broken or disagrees with its checkpoint,
2 on misuse.`;

export class UsageError extends Error {}

function options(argv: readonly string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') out.json = true;
    else if (
      /^--(round|from|to|table|kafka-brokers|topic|topic-prefix)$/.test(arg) &&
      argv[i + 1] !== undefined
    ) {
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

function describeChain(v: TableChainVerdict): string {
  if (v.intact) return `INTACT    ${v.tableId}: ${v.events} event(s) chained`;
  const b = v.firstBrokenLink!;
  return `BROKEN    ${v.tableId}: first broken link at event_no ${b.eventNo} (row id ${b.rowId}): ${b.reason}, expected ${b.expected}, found ${b.found}; ${v.events} event(s) before it verify`;
}

/** The events after the newest published head: how many, and the age of the oldest. */
export function describeUnanchored(v: Pick<AnchoredChainVerdict, 'anchor' | 'unanchored'>): string {
  const { events, ageSeconds } = v.unanchored;
  if (events === 0) return `UNPUBLISHED ${v.anchor.tableId}: none, every event is anchored`;
  return `UNPUBLISHED ${v.anchor.tableId}: ${events} event(s) after the newest published head are not anchored yet, the oldest ${ageSeconds} s old`;
}

export function describeAnchor(v: AnchorVerdict): string {
  switch (v.status) {
    case 'anchored':
      return `ANCHORED  ${v.tableId}: anchored up to ${v.checkpoint.eventNo}: event ${v.checkpoint.eventNo} matches the head published at ${v.checkpoint.checkpointAt}`;
    case 'no-checkpoint':
      return `UNANCHORED ${v.tableId}: no head published; ${v.verified} event(s) chained`;
    case 'truncated':
      return `TRUNCATED ${v.tableId}: chain ends at ${v.chainEnd} but published head at ${v.checkpoint.eventNo} (hash ${v.checkpoint.hash}) — ${v.missing} events missing`;
    case 'hash-differs':
      return `REWRITTEN ${v.tableId}: event ${v.checkpoint.eventNo} has hash ${v.storedHash} but the head published at ${v.checkpoint.checkpointAt} says ${v.checkpoint.hash}`;
    case 'broken':
      return `BROKEN    ${v.tableId}: the chain breaks at event_no ${v.firstBrokenLink.eventNo} (${v.firstBrokenLink.reason}), before the published head at ${v.checkpoint.eventNo}`;
  }
}

/** Where the Kafka checkpoints come from: the broker at the edge, a stub in unit tests. */
export type CheckpointSource = (
  brokers: readonly string[],
  topic: string,
) => Promise<{ checkpoints: ChainCheckpoint[]; invalid: number }>;

export interface AuditCliKafka {
  read: CheckpointSource;
  /** KAFKA_TOPIC_PREFIX of the deployment, used when neither --topic nor --topic-prefix is given. */
  defaultTopicPrefix?: string;
}

/** verify-chain against the checkpoints on the events topic. */
async function verifyAnchors(
  chain: VerifyEventChain,
  opts: Record<string, string | true>,
  kafka: AuditCliKafka,
  write: (line: string) => void,
): Promise<number> {
  const brokers = String(opts['kafka-brokers'])
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers.length === 0) throw new UsageError('--kafka-brokers needs host:port[,host:port]');
  const prefix = typeof opts['topic-prefix'] === 'string' ? opts['topic-prefix'] : undefined;
  const topic =
    typeof opts.topic === 'string'
      ? opts.topic
      : topicName('tableEvents', prefix ?? kafka.defaultTopicPrefix ?? '');
  const { checkpoints, invalid } = await kafka.read(brokers, topic);
  const json = opts.json === true;
  if (invalid > 0 && !json) {
    write(`WARNING   ${invalid} ChainCheckpoint message(s) on ${topic} do not match the schema`);
  }
  const verdicts = await chain.againstCheckpoints(checkpoints);
  for (const v of verdicts) {
    if (json) write(JSON.stringify(v));
    else {
      // A break after the checkpoint is not the checkpoint's business but still a finding.
      if (!v.chain.intact && v.anchor.status !== 'broken') write(describeChain(v.chain));
      write(describeAnchor(v.anchor));
      if (!anchorFailed(v.anchor)) write(describeUnanchored(v));
    }
  }
  if (!json) {
    write(`${checkpoints.length} chain head(s) read from ${topic}; ${verdicts.length} table(s)`);
  }
  return verdicts.some((v) => !v.chain.intact || anchorFailed(v.anchor)) ? 1 : 0;
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
  kafka?: AuditCliKafka,
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
    if (typeof opts['kafka-brokers'] === 'string') {
      if (!kafka) throw new UsageError('Reading checkpoints from Kafka is not available here');
      return verifyAnchors(chain, opts, kafka, write);
    }
    const verdicts =
      typeof opts.table === 'string' ? [await chain.table(opts.table)] : await chain.all();
    for (const v of verdicts) write(json ? JSON.stringify(v) : describeChain(v));
    return verdicts.every((v) => v.intact) ? 0 : 1;
  }
  throw new UsageError(`Unknown command "${command}"`);
}
