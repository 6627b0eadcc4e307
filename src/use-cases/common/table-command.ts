import type { SupervisionInput, TableInput } from '../../table-core/table-machine';
import type { CommandMeta, CommandRejection, CommandResult, Tables } from './tables.port';

/** Shared by the dealer's and supervisor's use cases: find the table here, or pass it on. */
export abstract class TableCommand {
  constructor(protected readonly tables: Tables) {}

  protected async submit(
    tableId: string,
    input: TableInput,
    meta?: CommandMeta,
  ): Promise<CommandResult> {
    const lookup = this.tables.get(tableId);
    if (lookup.ok) return lookup.runtime.submit(input, meta);
    // A dealer's or supervisor's console may be on any instance: the table's owner applies it.
    const relay = this.tables.relay;
    if (lookup.code === 'table-not-driven-here' && relay && isSupervision(input)) {
      return relay.relay(tableId, input);
    }
    return { accepted: false, code: lookup.code, message: lookup.message };
  }
}

/** Every dealer's and supervisor's input (a record, so a new one cannot be left out). */
const SUPERVISION: Record<SupervisionInput['type'], true> = {
  'close-betting': true,
  'cut-card': true,
  pause: true,
  resume: true,
  void: true,
  'request-void': true,
  'approve-void': true,
  'correct-card': true,
  'end-shoe': true,
};

function isSupervision(input: TableInput): input is SupervisionInput {
  return Object.hasOwn(SUPERVISION, input.type);
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
