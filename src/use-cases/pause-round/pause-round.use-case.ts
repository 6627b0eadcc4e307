import { TableCommand } from '../common/table-command';
import type { CommandResult } from '../common/tables.port';
import type { PauseRoundCommand } from './pause-round.command';

export class PauseRound extends TableCommand {
  execute(command: PauseRoundCommand): Promise<CommandResult> {
    const { tableId, by, reason } = command;
    return this.submit(tableId, { type: 'pause', by, reason });
  }
}
