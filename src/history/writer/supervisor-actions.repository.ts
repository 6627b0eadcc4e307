import type { DataSource, EntityManager } from 'typeorm';
import type { SupervisorActionWrite, TableWrites } from '../../table-core/table-machine';

export interface VoidRequestRecord {
  requestId: string;
  status: string;
}

/**
 * What supervisors did (`supervisor_actions`): applied actions, and void requests from pending
 * approval to applied or lapsed, as the table's transitions decide.
 */
export class SupervisorActionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A fresh row id for a void request, so the table can name the request before it is stored. */
  async newRequestId(): Promise<string> {
    const [row] = await this.dataSource.query(
      `SELECT nextval(pg_get_serial_sequence('supervisor_actions', 'id')) AS id`,
    );
    return String(row.id);
  }

  async findVoidRequest(
    tableId: string,
    requestId: string,
  ): Promise<VoidRequestRecord | undefined> {
    if (!/^\d+$/.test(requestId)) return undefined;
    const [row] = await this.dataSource.query(
      `SELECT id, status FROM supervisor_actions WHERE id = $1 AND table_id = $2 AND action = 'void'`,
      [requestId, tableId],
    );
    return row ? { requestId: String(row.id), status: row.status } : undefined;
  }

  async write(manager: EntityManager, tableId: string, w: TableWrites, at: Date): Promise<void> {
    const action = w.supervisorAction;
    if (action?.approval) await this.approve(manager, action.approval, at);
    else if (action) await this.insert(manager, tableId, action, at);
    // After the approval above: the request being applied is no longer pending.
    if (w.roundStatus?.ended) await this.lapse(manager, w.roundStatus.id, w, at);
  }

  private async insert(
    manager: EntityManager,
    tableId: string,
    a: SupervisorActionWrite,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO supervisor_actions (id, table_id, round_id, action, reason, actor_user_id, actor_name, status, details, created_at)
       VALUES (COALESCE($8::bigint, nextval(pg_get_serial_sequence('supervisor_actions', 'id'))),
               $1, $2, $3, $4, (SELECT id FROM users WHERE username = $5), $5,
               CASE WHEN $8::bigint IS NULL THEN 'applied' ELSE 'pending-approval' END, $6, $7)`,
      [tableId, a.roundId, a.action, a.reason, a.actor, a.details, at, a.pendingRequestId ?? null],
    );
  }

  private async approve(
    manager: EntityManager,
    approval: NonNullable<SupervisorActionWrite['approval']>,
    at: Date,
  ): Promise<void> {
    const updated = await manager.query(
      `WITH resolved AS (
         UPDATE supervisor_actions
            SET status = 'applied', approved_by_user_id = (SELECT id FROM users WHERE username = $2),
                details = details || jsonb_build_object('approvedBy', $2::text, 'approvedAt', $3::timestamptz)
          WHERE id = $1 AND status = 'pending-approval' RETURNING id)
       SELECT id FROM resolved`,
      [approval.requestId, approval.approvedBy, at],
    );
    // Approved twice, or approved after it lapsed: the whole transition rolls back.
    if (updated.length !== 1) {
      throw new Error(`Void request ${approval.requestId} is no longer pending`);
    }
  }

  /**
   * The requests the table lapsed with its round, and any of that round recorded by the previous
   * version (when requests lived outside the table state).
   */
  private async lapse(
    manager: EntityManager,
    roundId: string,
    w: TableWrites,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE supervisor_actions
          SET status = 'lapsed',
              details = details || jsonb_build_object('lapsedAt', $3::timestamptz,
                'lapsedBecause', 'the round ended before a second supervisor approved')
        WHERE status = 'pending-approval' AND (round_id = $1 OR id = ANY($2::bigint[]))`,
      [roundId, w.lapsedVoidRequests?.requestIds ?? [], at],
    );
  }
}
