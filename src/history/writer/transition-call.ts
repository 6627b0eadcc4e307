import type { TableWrites } from '../../table-core/table-machine';
import { UNSTORED_READING } from '../../table-core/table-writes';
import type { TableLease } from '../../database/table-lease.repository';
import type { OutboxRecord } from '../../outbox/outbox-writer';
import { ChainedEvent, GENESIS_HASH } from '../event-chain';
import { decodedOf, ReadingRecord } from '../scanner-history.repository';
import type { AnswerPlacement } from './processed-commands.repository';
import type { ChainHead } from './round-events.repository';

/** The rows of one transition, as the transition functions (src/history/sql/) take them. */
export interface TransitionCall {
  lease: TableLease;
  /** 0 for the table's first state. */
  expectedVersion: number;
  at: Date;
  /** The new state (snapshot) or its delta from the previous version, as JSON text. */
  state: { mode: 'snapshot' | 'delta'; json: string };
  writes: TableWrites;
  /** The transition's own reading, not stored yet (see readingRow). */
  reading?: Record<string, unknown>;
  prev: ChainHead;
  events: ChainedEvent[];
  outbox: OutboxRecord[];
  /**
   * The answers of the commands it applies (placeAnswers): in their bet / decision rows, or on
   * their own. Given, the call is studio_commit_commands, which also writes those rows.
   */
  answers?: AnswerPlacement;
  /**
   * The commands' ids were not looked up before they were stepped: studio_commit_commands looks
   * them up first and writes nothing when any was answered before (CommandsAnsweredBeforeError).
   */
  lookUpAnswers?: boolean;
}

/** A reading row as the call carries it (the outcome is the transition's). */
export function readingRow(record: ReadingRecord, w: TableWrites): Record<string, unknown> {
  const outcome = w.readingOutcome?.readingId === UNSTORED_READING ? w.readingOutcome : undefined;
  return {
    port: record.port,
    wireFormat: record.wireFormat,
    kind: record.reading.kind,
    rawHex: Buffer.from(record.reading.raw).toString('hex'),
    decoded: decodedOf(record.reading),
    deviceSeq: record.reading.sequence ?? null,
    receivedAt: new Date(record.reading.receivedAt).toISOString(),
    outcome: outcome?.outcome ?? record.outcome,
    outcomeDetail: outcome ? outcome.detail : (record.outcomeDetail ?? null),
  };
}

/** Settlements as studio_write_settlements takes them. */
export function settlementRows(settlements: TableWrites['settlements']) {
  return settlements.map((x) => ({
    round_id: x.roundId,
    bet_id: x.betId,
    player_id: x.playerId,
    bet_type: x.betType,
    spot: x.spot,
    stake: x.stake,
    returned: x.returned,
    net: x.net,
    outcome: x.outcome,
    rounded_down: x.roundedDown,
    currency: x.currency ?? null,
  }));
}

/**
 * studio_commit_transition's `t`: the transition's rows as one JSON document, with `settlements`
 * (all of the transition's, or the first of them when the rest follow in the same transaction).
 */
export function callRows(call: TransitionCall, settlements = call.writes.settlements) {
  const w = call.writes;
  return {
    tableId: call.lease.tableId,
    owner: call.lease.owner,
    epoch: call.lease.epoch,
    expectedVersion: call.expectedVersion,
    at: call.at.toISOString(),
    stateMode: call.state.mode,
    reading: call.reading ?? null,
    newShoe: w.newShoe ?? null,
    finishShoe: w.finishShoe ?? null,
    newRound: w.newRound ?? null,
    roundStatus: w.roundStatus ?? null,
    cards: w.cards,
    corrections: w.corrections,
    reveals: w.reveals,
    settlements: settlementRows(settlements),
    hands: w.hands ?? null,
    supervisorAction: w.supervisorAction ?? null,
    lapse: w.roundStatus?.ended
      ? { roundId: w.roundStatus.id, requestIds: w.lapsedVoidRequests?.requestIds ?? [] }
      : null,
    // Readings replayed in tests carry made-up ids; only stored readings have numeric ones.
    readingOutcome:
      w.readingOutcome && /^\d+$/.test(w.readingOutcome.readingId) ? w.readingOutcome : null,
    prevEventNo: call.prev.eventNo,
    prevHash: call.prev.hash,
    genesis: GENESIS_HASH,
    events: call.events,
    outbox: call.outbox,
    ...(call.lookUpAnswers && call.answers ? { lookUpAnswers: true } : {}),
  };
}

/** studio_commit_commands: the transition, its commands' rows, answers. */
export const COMMIT_COMMANDS = `SELECT studio_commit_commands($1::jsonb, $2::json,
  $3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[],
  $12::text[], $13::uuid[], $14::text[], $15::text[], $16::text[], $17::boolean[], $18::text[], $19::text[],
  $20::int[], $21::text[], $22::text[], $23::text[]) AS r`;

/**
 * The bet, decision and answer rows as column arrays (unnest: PostgreSQL reads them without
 * building a record per row); an accepted command's answer goes into its first row only (the
 * unique index on the answered command ids).
 */
export function commandColumns(w: TableWrites, answers: AnswerPlacement): string[] {
  const answered = new Set<string>();
  const answer = (commandId: string | undefined) => answerOf(commandId, answers.inRows, answered);
  const { bets, decisions } = w;
  const alone = answers.alone;
  const columns: ArrayElement[][] = [
    bets.map((b) => b.betId),
    bets.map((b) => b.roundId),
    bets.map((b) => b.playerId),
    bets.map((b) => b.commandId ?? null),
    bets.map((b) => b.betType),
    bets.map((b) => b.spot ?? null),
    bets.map((b) => b.amount),
    bets.map((b) => b.deducted),
    bets.map((b) => answer(b.commandId)),
    bets.map((b) => b.currency ?? null),
    decisions.map((d) => d.roundId),
    decisions.map((d) => d.playerId),
    decisions.map((d) => d.hand ?? null),
    decisions.map((d) => d.action),
    decisions.map((d) => d.automatic),
    decisions.map((d) => d.commandId ?? null),
    decisions.map((d) => answer(d.commandId)),
    decisions.map((d) => d.window ?? null),
    alone.map((c) => c.commandId),
    alone.map((c) => c.kind),
    alone.map((c) => JSON.stringify(c.result)),
  ];
  return columns.map(arrayLiteral);
}

type ArrayElement = string | number | boolean | null | undefined;

/**
 * A column as a PostgreSQL array literal (`{"a","b",NULL}`), cast by the statement to its type.
 * pg would build the same text, but element by element through its generic value conversion: for
 * a window of 100,000 commands that was a noticeable share of the intake's thread. A JSON array is
 * already that literal between other brackets (a string quoted with `"` and `\` escaped as the
 * array input reads them, `null` read as NULL, `true`/`false` as booleans), built natively in one
 * buffer; only a string with a control character or a surrogate (JSON writes those as `\n`,
 * `\uXXXX`, which the array input would read as plain letters) or a number JSON cannot write takes
 * the element-by-element way.
 */
export function arrayLiteral(values: readonly ArrayElement[]): string {
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (typeof v === 'string' ? JSON_WOULD_ESCAPE.test(v) : typeof v === 'number' && !isFinite(v))
      return elementByElement(values);
  }
  const json = JSON.stringify(values);
  return `{${json.slice(1, -1)}}`;
}

/** Characters JSON writes as an escape the array input does not read back. */
// eslint-disable-next-line no-control-regex
const JSON_WOULD_ESCAPE = /[\u0000-\u001f\ud800-\udfff]/;

function elementByElement(values: readonly ArrayElement[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (typeof v === 'string')
      parts[i] = `"${NEEDS_ESCAPE.test(v) ? v.replace(ESCAPED, '\\$&') : v}"`;
    else if (typeof v === 'boolean') parts[i] = v ? 't' : 'f';
    else parts[i] = String(v);
  }
  return `{${parts.join(',')}}`;
}

/** Inside a quoted array element only a double quote and a backslash are special. */
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/** The stored answer of the command's first row (JSON), null for its other rows. */
function answerOf(
  commandId: string | null | undefined,
  answers: ReadonlyMap<string, Record<string, unknown>>,
  answered: Set<string>,
): string | null {
  if (!commandId || answered.has(commandId)) return null;
  const answer = answers.get(commandId);
  if (answer === undefined) return null;
  answered.add(commandId);
  return JSON.stringify(answer);
}
