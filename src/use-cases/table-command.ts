import type { TableInput } from '../table-core/table-machine';
import type { CommandMeta, SubmitResult } from '../tables/table-runtime';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';

export type CommandResult = SubmitResult;

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

export function rejected(code: string, message: string): CommandResult {
  return { accepted: false, code, message };
}
