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
 * A commit asked to look its commands up (lookUpAnswers) found some answered before: it wrote
 * nothing. The table runtime knows it by its name (the middle ring imports no edge class) and
 * steps its batch again with these answers.
 */
export class CommandsAnsweredBeforeError extends Error {
  constructor(
    tableId: string | null,
    /** The stored first answers of the commands answered before. */
    readonly answers: Map<string, Record<string, unknown>>,
  ) {
    super(
      `${answers.size} of the commands for table ${tableId ?? '?'} were answered before: nothing was written`,
    );
    this.name = 'CommandsAnsweredBeforeError';
  }
}

const FIND_ANSWERS = `SELECT command_id, result FROM studio_find_answers($1::text[])`;

/**
 * Answers kept on their own; one answered before keeps the answer stored first. With $6 (the ids
 * were not looked up before), nothing is recorded when any was answered before, and those answers
 * are returned (without it, the lookup is not run: its condition is false before any row).
 */
const RECORD = `
  WITH known AS (SELECT command_id, result FROM studio_find_answers($1::text[]) WHERE $6::boolean),
       recorded AS (
         INSERT INTO processed_commands (command_id, table_id, kind, result, received_at)
         SELECT c.command_id, $4, c.kind, c.result::jsonb, $5
           FROM unnest($1::text[], $2::text[], $3::text[]) AS c(command_id, kind, result)
          WHERE NOT EXISTS (SELECT 1 FROM known)
         ON CONFLICT (command_id) DO NOTHING)
  SELECT command_id, result FROM known`;

/**
 * Idempotence of platform commands: each command id's first answer, in its bet or decision row
 * (`answer`) or in `processed_commands`.
 */
export class ProcessedCommandsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The stored first answers of those of these command ids that were already processed. */
  async find(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    for (const chunk of chunks(commandIds, ROWS_PER_STATEMENT)) {
      const rows = await this.dataSource.query(FIND_ANSWERS, [chunk]);
      for (const row of rows) found.set(row.command_id, row.result);
    }
    return found;
  }

  /**
   * Records the answers to commands that changed nothing (rejections), for idempotent repeats,
   * outside any transition (a transition's answers are written by its call). A repeat that slipped
   * in keeps the answer stored first. With `lookUpAnswers` (the ids were not looked up before),
   * when any was answered before nothing is recorded: CommandsAnsweredBeforeError.
   */
  async recordAlone(
    tableId: string | null,
    commands: readonly CommandRecord[],
    at: Date,
    lookUpAnswers = false,
  ): Promise<void> {
    if (commands.length === 0) return;
    const record = async (
      query: (sql: string, params: unknown[]) => Promise<unknown>,
      chunk: readonly CommandRecord[],
    ) => {
      const known = (await query(RECORD, [
        chunk.map((c) => c.commandId),
        chunk.map((c) => c.kind),
        chunk.map((c) => JSON.stringify(c.result)),
        tableId,
        at,
        lookUpAnswers,
      ])) as Array<{ command_id: string; result: Record<string, unknown> }>;
      // In a transaction, it rolls back what earlier chunks recorded.
      if (known.length > 0) {
        const answers = new Map(known.map((row) => [row.command_id, row.result]));
        throw new CommandsAnsweredBeforeError(tableId, answers);
      }
    };
    // One statement is a transaction of its own (one round trip, not three).
    if (commands.length <= ROWS_PER_STATEMENT) {
      return record((sql, params) => this.dataSource.query(sql, params), commands);
    }
    await this.dataSource.transaction(async (manager) => {
      for (const chunk of chunks(commands, ROWS_PER_STATEMENT)) {
        await record((sql, params) => manager.query(sql, params), chunk);
      }
    });
  }
}
