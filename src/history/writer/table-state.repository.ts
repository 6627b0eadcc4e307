import { DataSource, EntityManager } from 'typeorm';
import { TableState, upgradeTableState } from '../../table-core/table-machine';
import { TableLease, TableLeaseRepository } from '../../database/table-lease.repository';
import { applyStatePatch, diffState, StatePatch } from './state-delta';

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

/** Transitions between two snapshots of a table's state; the ones between store only a delta. */
export const SNAPSHOT_EVERY = 32;

/**
 * The table's current state (`table_state`), versioned and fenced by the table's lease. The
 * state is stored as a snapshot every SNAPSHOT_EVERY versions and, for the versions between, as
 * the delta from the previous state (`table_state_deltas`): a batch of a decision window writes
 * what its commands changed, not the 100,000 players' whole state.
 */
export class TableStateRepository {
  /** The version of each table's last snapshot as far as this instance knows. */
  private readonly snapshots = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly leases: TableLeaseRepository,
  ) {}

  /**
   * The stored state in the current shape: the snapshot (upgraded, if stored by the previous
   * version: the deltas after it were computed from the upgraded state) with its deltas applied.
   */
  async load(tableId: string): Promise<StoredTableState | undefined> {
    const rows = await this.dataSource.query(
      `SELECT version, coalesce(snapshot_version, version) AS snapshot_version, state
         FROM table_state WHERE table_id = $1`,
      [tableId],
    );
    if (rows.length !== 1) return undefined;
    const version = Number(rows[0].version);
    const snapshotVersion = Number(rows[0].snapshot_version);
    let state: unknown = upgradeTableState(rows[0].state);
    if (snapshotVersion < version) {
      const deltas = await this.dataSource.query(
        `SELECT version, delta FROM table_state_deltas
          WHERE table_id = $1 AND version > $2 AND version <= $3 ORDER BY version`,
        [tableId, snapshotVersion, version],
      );
      if (deltas.length !== version - snapshotVersion) {
        throw new Error(
          `Table ${tableId}: ${deltas.length} state deltas stored after snapshot ${snapshotVersion}, ${version - snapshotVersion} expected`,
        );
      }
      for (const row of deltas) state = applyStatePatch(state, row.delta as StatePatch);
    }
    this.snapshots.set(tableId, snapshotVersion);
    return { version, state: state as TableState };
  }

  /** Fails the transaction unless this instance still holds the table's lease. */
  assertLease(manager: EntityManager, lease: TableLease): Promise<void> {
    return this.leases.assertHeld(manager, lease);
  }

  /**
   * Writes the new state over the expected version; returns the new version. With the state it
   * replaces (`previous`, as stored at `expectedVersion`) only the delta is written, unless a
   * snapshot is due. A rolled-back snapshot only delays the next one: the deltas stay a chain.
   */
  async write(
    manager: EntityManager,
    state: TableState,
    expectedVersion: number,
    at: Date,
    previous?: TableState,
  ): Promise<number> {
    const tableId = state.tableId;
    if (expectedVersion === 0) {
      const inserted = await manager.query(
        `INSERT INTO table_state (table_id, version, snapshot_version, state, updated_at)
         VALUES ($1, 1, 1, $2, $3) ON CONFLICT (table_id) DO NOTHING RETURNING version`,
        [tableId, state, at],
      );
      if (inserted.length !== 1) throw new StaleTableStateError(tableId, 0);
      this.snapshots.set(tableId, 1);
      return 1;
    }
    const plan = this.plan(state, expectedVersion, previous);
    if (plan.mode === 'snapshot') return this.writeSnapshot(manager, state, expectedVersion, at);
    const delta = plan.delta;
    const rows = await manager.query(
      `WITH updated AS (
         UPDATE table_state SET version = version + 1, updated_at = $4
          WHERE table_id = $1 AND version = $2 RETURNING version)
       INSERT INTO table_state_deltas (table_id, version, delta)
       SELECT $1, version, $3::json FROM updated RETURNING version`,
      [tableId, expectedVersion, JSON.stringify(delta), at],
    );
    if (rows.length !== 1) throw new StaleTableStateError(tableId, expectedVersion);
    return Number(rows[0].version);
  }

  /**
   * How the state at expectedVersion + 1 is stored: a snapshot when one is due (or nothing to diff
   * against, or the whole state replaced), otherwise the delta from `previous`.
   */
  plan(
    state: TableState,
    expectedVersion: number,
    previous?: TableState,
  ): { mode: 'snapshot' } | { mode: 'delta'; delta: StatePatch } {
    const snapshot = this.snapshots.get(state.tableId);
    const due = snapshot === undefined || expectedVersion + 1 - snapshot >= SNAPSHOT_EVERY;
    const delta = previous && !due ? diffState(previous, state) : undefined;
    if (!previous || due || (delta && 'r' in delta)) return { mode: 'snapshot' };
    return { mode: 'delta', delta: delta ?? { o: {} } };
  }

  /** A snapshot written by the one-call path (studio_commit_transition) committed. */
  snapshotCommitted(tableId: string, version: number): void {
    this.snapshots.set(tableId, version);
  }

  private async writeSnapshot(
    manager: EntityManager,
    state: TableState,
    expectedVersion: number,
    at: Date,
  ): Promise<number> {
    const tableId = state.tableId;
    const rows = await manager.query(
      `WITH updated AS (
         UPDATE table_state
            SET version = version + 1, snapshot_version = version + 1, state = $3, updated_at = $4
          WHERE table_id = $1 AND version = $2 RETURNING version),
       cleared AS (
         DELETE FROM table_state_deltas WHERE table_id = $1 AND version <= $2 + 1
          AND EXISTS (SELECT 1 FROM updated))
       SELECT version FROM updated`,
      [tableId, expectedVersion, state, at],
    );
    if (rows.length !== 1) throw new StaleTableStateError(tableId, expectedVersion);
    const version = Number(rows[0].version);
    this.snapshots.set(tableId, version);
    return version;
  }
}
