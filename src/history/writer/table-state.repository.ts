import type { DataSource } from 'typeorm';
import { TableState, upgradeTableState } from '../../table-core/table-machine';
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

  constructor(private readonly dataSource: DataSource) {}

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

  /** A snapshot written by the transition's call committed at `version`. */
  snapshotCommitted(tableId: string, version: number): void {
    this.snapshots.set(tableId, version);
  }
}
