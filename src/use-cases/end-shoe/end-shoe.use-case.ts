import { TableCommand } from '../common/table-command';
import type { CommandResult } from '../common/tables.port';
import type { EndShoeCommand } from './end-shoe.command';

export class EndShoe extends TableCommand {
  execute(command: EndShoeCommand): Promise<CommandResult> {
    const { tableId, by, reason } = command;
    return this.submit(tableId, { type: 'end-shoe', by, reason });
  }
}
