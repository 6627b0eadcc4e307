import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

/** A supervisor's action on a round, as the auditor's timeline shows it. */
export interface RoundActionRecord {
  action: string;
  reason: string | null;
  actor: string;
  status: string;
  details: unknown;
  createdAt: string;
}

/** An entry of the supervisors' action log, with the status of the round it concerns. */
export interface ActionLogRecord {
  id: string;
  at: string;
  tableId: string;
  roundId: string | null;
  action: string;
  reason: string | null;
  by: string;
  status: string;
  approvedBy: string | null;
  details: Record<string, unknown>;
  roundStatus: string | null;
}

/** supervisor_actions. */
export class SupervisorActionsReader {
  constructor(private readonly q: HistoryQuery) {}

  async ofRound(roundId: string): Promise<RoundActionRecord[]> {
    const rows = await this.q<{
      action: string;
      reason: string | null;
      actor_name: string;
      status: string;
      details: unknown;
      created_at: Date;
    }>(
      `SELECT action, reason, actor_name, status, details, created_at
         FROM supervisor_actions WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
    return rows.map((a) => ({
      action: a.action,
      reason: a.reason,
      actor: a.actor_name,
      status: a.status,
      details: a.details,
      createdAt: iso(a.created_at)!,
    }));
  }

  /** The newest `limit` actions (of one table), newest first. */
  async log(filter: { tableId?: string; limit: number }): Promise<ActionLogRecord[]> {
    const rows = await this.q<{
      id: string;
      created_at: Date;
      table_id: string;
      round_id: string | null;
      action: string;
      reason: string | null;
      actor_name: string;
      status: string;
      approved_by: string | null;
      details: Record<string, unknown> | null;
      round_status: string | null;
    }>(
      `SELECT a.id, a.created_at, a.table_id, a.round_id, a.action, a.reason, a.actor_name, a.status,
              u.username AS approved_by, a.details, r.status AS round_status
         FROM supervisor_actions a
         LEFT JOIN users u ON u.id = a.approved_by_user_id
         LEFT JOIN rounds r ON r.id = a.round_id
        WHERE ($1::text IS NULL OR a.table_id = $1)
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT $2`,
      [filter.tableId ?? null, filter.limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      at: iso(r.created_at)!,
      tableId: r.table_id,
      roundId: r.round_id,
      action: r.action,
      reason: r.reason,
      by: r.actor_name,
      status: r.status,
      approvedBy: r.approved_by,
      details: r.details ?? {},
      roundStatus: r.round_status,
    }));
  }
}
