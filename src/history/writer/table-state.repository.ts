import { DataSource, EntityManager } from 'typeorm';
import { TableState, upgradeTableState } from '../../table-core/table-machine';
import { TableLease, TableLeaseRepository } from '../../database/table-lease.repository';

export interface StoredTableState {
  version: number;
  state: TableState;
}

/** Version conflict: another writer changed the table (should be impossible under the lease). */
export class StaleTableStateError extends Error {
  constructor(tableId: string, expected: number) {
    super(`Table ${tableId} changed underneath (expected version ${expected}); reloading`);
    this.name = 'StaleTableStateError';
  }
}

/** The table's current state (`table_state`), versioned and fenced by the table's lease. */
export class TableStateRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly leases: TableLeaseRepository,
  ) {}

  /** The stored state in the current shape (states of the previous version are upgraded). */
  async load(tableId: string): Promise<StoredTableState | undefined> {
    const rows = await this.dataSource.query(
      `SELECT version, state FROM table_state WHERE table_id = $1`,
      [tableId],
    );
    return rows.length === 1
      ? { version: Number(rows[0].version), state: upgradeTableState(rows[0].state) }
      : undefined;
  }

  /** Fails the transaction unless this instance still holds the table's lease. */
  assertLease(manager: EntityManager, lease: TableLease): Promise<void> {
    return this.leases.assertHeld(manager, lease);
  }

  /** Writes the new state over the expected version; returns the new version. */
  async write(
    manager: EntityManager,
    state: TableState,
    expectedVersion: number,
    at: Date,
  ): Promise<number> {
    if (expectedVersion === 0) {
      const inserted = await manager.query(
        `INSERT INTO table_state (table_id, version, state, updated_at)
         VALUES ($1, 1, $2, $3) ON CONFLICT (table_id) DO NOTHING RETURNING version`,
        [state.tableId, state, at],
      );
      if (inserted.length !== 1) throw new StaleTableStateError(state.tableId, 0);
      return 1;
    }
    const rows = await manager.query(
      `WITH updated AS (
         UPDATE table_state SET version = version + 1, state = $3, updated_at = $4
          WHERE table_id = $1 AND version = $2 RETURNING version)
       SELECT version FROM updated`,
      [state.tableId, expectedVersion, state, at],
    );
    if (rows.length !== 1) throw new StaleTableStateError(state.tableId, expectedVersion);
    return Number(rows[0].version);
  }
}
