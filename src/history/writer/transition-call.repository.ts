import type { DataSource } from 'typeorm';
import { LeaseLostError, TableLease } from '../../database/table-lease.repository';
import type { TableWrites } from '../../table-core/table-machine';
import { GENESIS_HASH } from '../event-chain';
import type { AnswerPlacement } from './processed-commands.repository';
import type { ChainedEvent } from '../event-chain';
import type { ChainHead, OutboxRow } from './round-events.repository';
import { StaleTableStateError } from './table-state.repository';
import { answerOf } from './wagers.repository';
import type { GroupSender, Settled } from './group-commit';

/** The rows of one transition, as studio_commit_transition takes them. */
export interface TransitionCall {
  lease: TableLease;
  expectedVersion: number;
  at: Date;
  /** The new state (snapshot) or its delta from the previous version, as JSON text. */
  state: { mode: 'snapshot' | 'delta'; json: string };
  writes: TableWrites;
  /** The transition's own reading, not stored yet (see readingRow). */
  reading?: Record<string, unknown>;
  prev: ChainHead;
  events: ChainedEvent[];
  outbox: OutboxRow[];
  /**
   * The answers of the commands it applies (placeAnswers): in their bet / decision rows, or on
   * their own. Given, the call is studio_commit_commands, which also writes those rows.
   */
  answers?: AnswerPlacement;
}

/** The hash chain moved under the owner (its remembered head is stale): nothing was written. */
export class ChainMovedError extends Error {
  constructor(tableId: string) {
    super(`The event chain of table ${tableId} is not where this instance left it`);
    this.name = 'ChainMovedError';
  }
}

/**
 * A transition in one round trip: one call of studio_commit_transition (migration
 * 1764710000000), which checks the lease, the state version and the chain's head and writes every
 * row of the transition in its own statement, so in one commit.
 */
export class TransitionCallRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes the transition; returns the new version and the id of its reading row, if any. */
  async commit(call: TransitionCall): Promise<CallResult> {
    const t = callRows(call);
    try {
      const [row] = call.answers
        ? await this.dataSource.query(COMMIT_COMMANDS, [
            JSON.stringify(t),
            call.state.json,
            ...commandColumns(call.writes, call.answers),
          ])
        : await this.dataSource.query(`SELECT studio_commit_transition($1::jsonb, $2::json) AS r`, [
            JSON.stringify(t),
            call.state.json,
          ]);
      return callResult(row.r);
    } catch (error) {
      throw fenceError(call, (error as { code?: string }).code) ?? error;
    }
  }

  /** The sender of the group commit: a transition alone, or several in one commit. */
  readonly sender: GroupSender<TransitionCall, CallResult> = {
    one: (call) => this.commit(call),
    group: (calls) => this.commitGroup(calls),
  };

  /**
   * Transitions of different tables (none answering commands) in one call of
   * studio_commit_transitions (migration 1764857000000), so in one commit; each is all-or-nothing
   * on its own. One refused by its fence settles with the same error as alone; one failing
   * otherwise left nothing behind and is sent again alone, so its error is the database's own.
   */
  async commitGroup(calls: readonly TransitionCall[]): Promise<Array<Settled<CallResult>>> {
    const [row] = await this.dataSource.query(
      `SELECT studio_commit_transitions($1::jsonb, $2::json[]) AS r`,
      [
        `[${calls.map((c) => JSON.stringify(callRows(c))).join(',')}]`,
        calls.map((c) => c.state.json),
      ],
    );
    const answers = row.r as Array<{
      version?: number | string;
      readingId?: string | null;
      error?: string;
    }>;
    return Promise.all(
      calls.map(async (call, i): Promise<Settled<CallResult>> => {
        const a = answers[i];
        if (a.error === undefined) return { ok: true, value: callResult(a) };
        const fenced = fenceError(call, a.error);
        if (fenced) return { ok: false, error: fenced };
        return this.commit(call).then(
          (value) => ({ ok: true, value }),
          (error: unknown) => ({ ok: false, error }),
        );
      }),
    );
  }
}

export type CallResult = { version: number; readingId: string | null };

function callResult(r: { version?: number | string; readingId?: string | null }): CallResult {
  return { version: Number(r.version), readingId: r.readingId ?? null };
}

/** The error of a transition its function's checks refused (SL001-SL003), else undefined. */
function fenceError(call: TransitionCall, code: string | undefined): Error | undefined {
  if (code === 'SL001') return new LeaseLostError(call.lease);
  if (code === 'SL002') return new StaleTableStateError(call.lease.tableId, call.expectedVersion);
  if (code === 'SL003') return new ChainMovedError(call.lease.tableId);
  return undefined;
}

/** studio_commit_transition's `t`: the transition's rows as one JSON document. */
function callRows(call: TransitionCall) {
  const w = call.writes;
  const tableId = call.lease.tableId;
  return {
    tableId,
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
    reveals: w.reveals,
    settlements: w.settlements.map((x) => ({
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
    })),
    hands: w.hands ?? null,
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
  };
}

/** studio_commit_commands (migration 1764830000000): the transition, its commands' rows, answers. */
const COMMIT_COMMANDS = `SELECT studio_commit_commands($1::jsonb, $2::json,
  $3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[],
  $12::uuid[], $13::text[], $14::text[], $15::text[], $16::boolean[], $17::text[], $18::text[], $19::int[],
  $20::text[], $21::text[], $22::text[]) AS r`;

/**
 * The bet, decision and answer rows as column arrays; an accepted command's answer goes into its
 * first row only (the unique index on the answered command ids).
 */
function commandColumns(w: TableWrites, answers: AnswerPlacement): unknown[] {
  const answered = new Set<string>();
  const answer = (commandId: string | undefined) => answerOf(commandId, answers.inRows, answered);
  const { bets, decisions } = w;
  const alone = answers.alone;
  return [
    bets.map((b) => b.betId),
    bets.map((b) => b.roundId),
    bets.map((b) => b.playerId),
    bets.map((b) => b.commandId ?? null),
    bets.map((b) => b.betType),
    bets.map((b) => b.spot ?? null),
    bets.map((b) => b.amount),
    bets.map((b) => b.deducted),
    bets.map((b) => answer(b.commandId)),
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
}
