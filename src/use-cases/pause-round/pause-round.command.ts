import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor, trimmedText } from '../common/table-command';

/** A supervisor pauses the table, saying why. */
export class PauseRoundCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly reason: string,
  ) {}

  static create(input: TableActor & { reason: unknown }): PauseRoundCommand | CommandRejection {
    const reason = trimmedText(input.reason);
    if (!reason) return rejected('reason-required', 'A pause needs a reason');
    return new PauseRoundCommand(input.tableId, input.by, reason);
  }
}
