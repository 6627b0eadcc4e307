import type { DataSource } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { chunks, ROWS_PER_STATEMENT } from './sql-chunks';

/** A command's first answer, kept so that a repeat of its command id gets the same answer. */
export interface CommandRecord {
  commandId: string;
  kind: string;
  result: Record<string, unknown>;
}

/** Where a transition's answers are stored: in its bet / decision rows, or on their own. */
export interface AnswerPlacement {
  /** Accepted commands that write a bet or decision row: the answer goes into its first row. */
  inRows: Map<string, Record<string, unknown>>;
  /** The others (refusals, commands without such a row): a `processed_commands` row each. */
  alone: CommandRecord[];
}

/**
 * One row per command where one suffices: an accepted bet or decision is its own idempotence
 * record (its row carries the answer under a unique command id), so only the other answers
 * need a `processed_commands` row.
 */
export function placeAnswers(
  writes: Pick<TableWrites, 'bets' | 'decisions'>,
  commands: readonly CommandRecord[],
): AnswerPlacement {
  const inRows = new Map<string, Record<string, unknown>>();
  if (writes.bets.length === 0 && writes.decisions.length === 0) {
    return { inRows, alone: [...commands] };
  }
  const withRow = new Set<string>();
  for (const b of writes.bets) if (b.commandId) withRow.add(b.commandId);
  for (const d of writes.decisions) if (d.commandId) withRow.add(d.commandId);
  const alone: CommandRecord[] = [];
  for (const c of commands) {
    if (c.result.accepted === true && withRow.has(c.commandId) && !inRows.has(c.commandId)) {
      inRows.set(c.commandId, c.result);
    } else alone.push(c);
  }
  return { inRows, alone };
}

/**
 * Where a command id's first answer is: its bet or decision row, or processed_commands. One
 * index probe per id (a nested loop over the ids): with `command_id = ANY(...)` the planner
 * scanned the whole bets table once it had grown past its last ANALYZE, which is just what a
 * betting window does, and the lookup grew with the table instead of with the batch.
 */
const FIND_ANSWERS = `
  SELECT c.command_id, a.result
    FROM unnest($1::text[]) AS c(command_id)
   CROSS JOIN LATERAL (
         SELECT p.result FROM processed_commands p WHERE p.command_id = c.command_id
          UNION ALL
         SELECT b.answer FROM bets b WHERE b.command_id = c.command_id AND b.answer IS NOT NULL
          UNION ALL
         SELECT d.answer FROM decisions d WHERE d.command_id = c.command_id AND d.answer IS NOT NULL
          LIMIT 1) a`;

/**
 * Idempotence of platform commands: each command id's first answer, in its bet or decision row
 * (`answer`) or in `processed_commands`.
 */
export class ProcessedCommandsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The stored first answers of those of these command ids that were already processed. */
  async find(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    for (const chunk of chunks(commandIds, 5000)) {
      const rows = await this.dataSource.query(FIND_ANSWERS, [chunk]);
      for (const row of rows) found.set(row.command_id, row.result);
    }
    return found;
  }

  /**
   * Records the answers to commands that changed nothing (rejections), for idempotent repeats,
   * outside any transition (a transition's answers are written by its call). A repeat that slipped
   * in keeps the answer stored first.
   */
  async recordAlone(
    tableId: string | null,
    commands: readonly CommandRecord[],
    at: Date,
  ): Promise<void> {
    if (commands.length === 0) return;
    await this.dataSource.transaction(async (manager) => {
      for (const chunk of chunks(commands, ROWS_PER_STATEMENT)) {
        await manager.query(
          `INSERT INTO processed_commands (command_id, table_id, kind, result, received_at)
           SELECT c.command_id, $4, c.kind, c.result::jsonb, $5
             FROM unnest($1::text[], $2::text[], $3::text[]) AS c(command_id, kind, result)
           ON CONFLICT (command_id) DO NOTHING`,
          [
            chunk.map((c) => c.commandId),
            chunk.map((c) => c.kind),
            chunk.map((c) => JSON.stringify(c.result)),
            tableId,
            at,
          ],
        );
      }
    });
  }
}
