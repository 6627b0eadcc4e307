import type { DataSource } from 'typeorm';
import { TableState, upgradeTableState } from '../table-core/table-machine';
import { applyStatePatch, StatePatch } from './writer/state-delta';
import type { StoredTableState } from './writer/table-state.repository';

/**
 * The stored state of a table this instance does not drive (the consoles and the table list show
 * it as its owner last committed it). Read-only: writing stays with the owner's transition writer.
 * The state is stored as a snapshot plus the deltas after it; both are read in one statement, so a
 * transition committing meanwhile cannot split them.
 */
export class TableStateReader {
  constructor(private readonly dataSource: DataSource) {}

  async load(tableId: string): Promise<StoredTableState | undefined> {
    const rows: Array<{
      version: string;
      snapshot_version: string;
      state: unknown;
      deltas: unknown;
    }> = await this.dataSource.query(
      `SELECT t.version, coalesce(t.snapshot_version, t.version) AS snapshot_version, t.state,
                (SELECT coalesce(json_agg(d.delta ORDER BY d.version), '[]'::json)
                   FROM table_state_deltas d
                  WHERE d.table_id = t.table_id
                    AND d.version > coalesce(t.snapshot_version, t.version)
                    AND d.version <= t.version) AS deltas
           FROM table_state t WHERE t.table_id = $1`,
      [tableId],
    );
    if (rows.length !== 1) return undefined;
    const version = Number(rows[0].version);
    const deltas = rows[0].deltas as StatePatch[];
    if (deltas.length !== version - Number(rows[0].snapshot_version)) {
      throw new Error(`Table ${tableId}: state deltas missing after its snapshot`);
    }
    let state: unknown = upgradeTableState(rows[0].state);
    for (const delta of deltas) state = applyStatePatch(state, delta);
    return { version, state: state as TableState };
  }
}
