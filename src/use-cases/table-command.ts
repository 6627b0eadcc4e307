import type { TableInput } from '../table-core/table-machine';
import type { CommandMeta, SubmitResult } from '../tables/table-runtime';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';

export type CommandResult = SubmitResult;

/** A command refused before it reaches its table (invalid input, unknown table...). */
export type CommandRejection = Extract<CommandResult, { accepted: false }>;

/** Shared by the use cases: find the table's runtime here, or answer why not. */
export abstract class TableCommand {
  constructor(protected readonly tables: TableRuntimeRegistry) {}

  protected async submit(
    tableId: string,
    input: TableInput,
    meta?: CommandMeta,
  ): Promise<CommandResult> {
    const lookup = this.tables.get(tableId);
    if (!lookup.ok) return { accepted: false, code: lookup.code, message: lookup.message };
    return lookup.runtime.submit(input, meta);
  }
}

export function rejected(code: string, message: string): CommandRejection {
  return { accepted: false, code, message };
}

/** Whether `create` refused the command (a command object is never a rejection). */
export function isRejection<C>(value: C | CommandRejection): value is CommandRejection {
  return (value as CommandRejection).accepted === false;
}

/** The trimmed text, or undefined when there is none (the caller says why that is refused). */
export function trimmedText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** Who acts at which table: what every dealer and supervisor command carries. */
export interface TableActor {
  tableId: string;
  by: string;
}
