import type { DataSource, EntityManager } from 'typeorm';
import { chunks, ROWS_PER_STATEMENT } from './sql-chunks';

/** A command's first answer, kept so that a repeat of its command id gets the same answer. */
export interface CommandRecord {
  commandId: string;
  kind: string;
  result: Record<string, unknown>;
}

/** Idempotence of platform commands: each command id's first answer (`processed_commands`). */
export class ProcessedCommandsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The stored first answers of those of these command ids that were already processed. */
  async find(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    for (const chunk of chunks(commandIds, 5000)) {
      const rows = await this.dataSource.query(
        `SELECT command_id, result FROM processed_commands WHERE command_id = ANY($1::text[])`,
        [chunk],
      );
      for (const row of rows) found.set(row.command_id, row.result);
    }
    return found;
  }

  /** Records the answers to commands that changed nothing (rejections), for idempotent repeats. */
  async recordAlone(
    tableId: string | null,
    commands: readonly CommandRecord[],
    at: Date,
  ): Promise<void> {
    if (commands.length === 0) return;
    await this.dataSource.transaction((manager) =>
      this.insert(manager, tableId, commands, at, 'ON CONFLICT (command_id) DO NOTHING'),
    );
  }

  /** Inside a transition: a repeat that slipped in conflicts and rolls the transition back. */
  async insert(
    manager: EntityManager,
    tableId: string | null,
    commands: readonly CommandRecord[],
    at: Date,
    onConflict = '',
  ): Promise<void> {
    for (const chunk of chunks(commands, ROWS_PER_STATEMENT)) {
      await manager.query(
        `INSERT INTO processed_commands (command_id, table_id, kind, result, received_at)
         SELECT c."commandId", $2, c.kind, c.result, $3
           FROM jsonb_to_recordset($1::jsonb) AS c("commandId" text, kind text, result jsonb)
         ${onConflict}`,
        [JSON.stringify(chunk), tableId, at],
      );
    }
  }
}
