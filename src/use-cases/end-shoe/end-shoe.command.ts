import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor, trimmedText } from '../common/table-command';

/** A supervisor closes the shoe between rounds (a new one is opened and burnt). */
export class EndShoeCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly reason: string,
  ) {}

  static create(input: TableActor & { reason: unknown }): EndShoeCommand | CommandRejection {
    const reason = trimmedText(input.reason);
    if (!reason) return rejected('reason-required', 'Ending a shoe needs a reason');
    return new EndShoeCommand(input.tableId, input.by, reason);
  }
}
