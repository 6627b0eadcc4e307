import type { PlatformCommand } from '../common/platform-command';
import { rejected } from '../common/table-command';
import type { CommandRejection } from '../common/tables.port';

/** Many platform commands of one table, in the order they are to be applied. */
export class ApplyCommandsCommand {
  private constructor(
    readonly tableId: string,
    readonly commands: readonly PlatformCommand[],
  ) {}

  static create(
    tableId: string,
    commands: readonly PlatformCommand[],
  ): ApplyCommandsCommand | CommandRejection {
    const other = commands.find((c) => c.tableId !== tableId);
    if (other) {
      return rejected('invalid-command', `A command for table ${other.tableId} among ${tableId}'s`);
    }
    return new ApplyCommandsCommand(tableId, commands);
  }
}
