import type { DataSource } from 'typeorm';

export interface VoidRequestRecord {
  requestId: string;
  status: string;
}

/**
 * What supervisors did (`supervisor_actions`), as the table's use cases need to know it: a void
 * request's id before it is stored, and a stored request's status. The rows themselves (applied
 * actions, void requests from pending approval to applied or lapsed) are written by the
 * transitions that decide them (studio_commit_transition).
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
}
