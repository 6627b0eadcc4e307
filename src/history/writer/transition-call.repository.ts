import type { DataSource } from 'typeorm';
import { LeaseLostError } from '../../database/table-lease.repository';
import type { GroupSender, Settled } from './group-commit';
import { CommandsAnsweredBeforeError } from './processed-commands.repository';
import { chunks } from './sql-chunks';
import { StaleTableStateError } from './table-state.repository';
import {
  callRows,
  COMMIT_COMMANDS,
  commandColumns,
  settlementRows,
  TransitionCall,
} from './transition-call';

/** The hash chain moved under the owner (its remembered head is stale): nothing was written. */
export class ChainMovedError extends Error {
  constructor(tableId: string) {
    super(`The event chain of table ${tableId} is not where this instance left it`);
    this.name = 'ChainMovedError';
  }
}

/** A void request approved after it was approved already or lapsed: nothing was written. */
export class VoidRequestNotPendingError extends Error {
  constructor(requestId: string) {
    super(`Void request ${requestId} is no longer pending`);
    this.name = 'VoidRequestNotPendingError';
  }
}

/**
 * Settlements one call carries; a round end settling more sends the rest, in the same
 * transaction, a call of studio_write_settlements per this many (a statement's JSON stays a
 * moderate size, and such a call does not hold up a group commit).
 */
export const SETTLEMENTS_PER_CALL = 1_000;

export type CallResult = { version: number; readingId: string | null };

/**
 * Whether the call is sent on its own rather than in a group commit: a batch of commands (its
 * answers must come back with its own error codes), or a round end settling more than one call
 * carries.
 */
export function sentAlone(call: TransitionCall): boolean {
  return call.answers !== undefined || call.writes.settlements.length > SETTLEMENTS_PER_CALL;
}

/**
 * The one way a transition's rows are written: a call of studio_commit_transition
 * (src/history/sql/), which checks the lease, the state version and the chain's head and writes
 * every row of the transition in its own statement, so in one commit; studio_commit_commands for
 * one that answers platform commands; several tables' in one call of studio_commit_transitions.
 */
export class TransitionCallRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes the transition; returns the new version and the id of its reading row, if any. */
  async commit(call: TransitionCall): Promise<CallResult> {
    const [first, ...rest] = chunks(call.writes.settlements, SETTLEMENTS_PER_CALL);
    const t = JSON.stringify(callRows(call, first ?? []));
    const [sql, params] = call.answers
      ? [COMMIT_COMMANDS, [t, call.state.json, ...commandColumns(call.writes, call.answers)]]
      : [`SELECT studio_commit_transition($1::jsonb, $2::json) AS r`, [t, call.state.json]];
    try {
      if (rest.length === 0) {
        const [row] = await this.dataSource.query(sql, params);
        return callResult(call, row.r);
      }
      return await this.dataSource.transaction(async (manager) => {
        const [row] = await manager.query(sql, params);
        const first = callResult(call, row.r);
        for (const settlements of rest) {
          await manager.query(`SELECT studio_write_settlements($1, $2::jsonb)`, [
            call.at,
            JSON.stringify(settlementRows(settlements)),
          ]);
        }
        return first;
      });
    } catch (error) {
      throw refusal(call, (error as { code?: string }).code) ?? error;
    }
  }

  /** The sender of the group commit: a transition alone, or several in one commit. */
  readonly sender: GroupSender<TransitionCall, CallResult> = {
    one: (call) => this.commit(call),
    group: (calls) => this.commitGroup(calls),
  };

  /**
   * Transitions of different tables (none answering commands) in one call of
   * studio_commit_transitions, so in one commit; each is all-or-nothing on its own. One refused by
   * its checks settles with the same error as alone; one failing otherwise left nothing behind
   * and is sent again alone, so its error is the database's own.
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
        if (a.error === undefined) return { ok: true, value: callResult(call, a) };
        const refused = refusal(call, a.error);
        if (refused) return { ok: false, error: refused };
        return this.commit(call).then(
          (value) => ({ ok: true, value }),
          (error: unknown) => ({ ok: false, error }),
        );
      }),
    );
  }
}

/** A call's answer: what it committed, or (lookUpAnswers) the commands answered before. */
function callResult(
  call: TransitionCall,
  r: {
    version?: number | string;
    readingId?: string | null;
    answeredBefore?: Record<string, Record<string, unknown>>;
  },
): CallResult {
  if (r.answeredBefore) {
    throw new CommandsAnsweredBeforeError(
      call.lease.tableId,
      new Map(Object.entries(r.answeredBefore)),
    );
  }
  return { version: Number(r.version), readingId: r.readingId ?? null };
}

/** The error of a transition its function's checks refused (SL001-SL004), else undefined. */
function refusal(call: TransitionCall, code: string | undefined): Error | undefined {
  if (code === 'SL001') return new LeaseLostError(call.lease);
  if (code === 'SL002') return new StaleTableStateError(call.lease.tableId, call.expectedVersion);
  if (code === 'SL003') return new ChainMovedError(call.lease.tableId);
  if (code === 'SL004') {
    return new VoidRequestNotPendingError(call.writes.supervisorAction?.approval?.requestId ?? '?');
  }
  return undefined;
}
