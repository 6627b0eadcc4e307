import { CommandResult, TableCommand } from '../table-command';
import type { CloseBettingCommand } from './close-betting.command';

export class CloseBetting extends TableCommand {
  execute(command: CloseBettingCommand): Promise<CommandResult> {
    return this.submit(command.tableId, { type: 'close-betting', by: command.by });
  }
}
