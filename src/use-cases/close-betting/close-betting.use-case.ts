import { TableCommand } from '../common/table-command';
import type { CommandResult } from '../common/tables.port';
import type { CloseBettingCommand } from './close-betting.command';

export class CloseBetting extends TableCommand {
  execute(command: CloseBettingCommand): Promise<CommandResult> {
    return this.submit(command.tableId, { type: 'close-betting', by: command.by });
  }
}
