import type { DataSource } from 'typeorm';
import { upgradeTableState } from '../table-core/table-machine';
import type { StoredTableState } from './writer/table-state.repository';

/**
 * The stored state of a table this instance does not drive (the consoles and the table list show
 * it as its owner last committed it). Read-only: writing stays with the owner's transition writer.
 */
export class TableStateReader {
  constructor(private readonly dataSource: DataSource) {}

  async load(tableId: string): Promise<StoredTableState | undefined> {
    const rows = await this.dataSource.query(
      `SELECT version, state FROM table_state WHERE table_id = $1`,
      [tableId],
    );
    return rows.length === 1
      ? { version: Number(rows[0].version), state: upgradeTableState(rows[0].state) }
      : undefined;
  }
}
