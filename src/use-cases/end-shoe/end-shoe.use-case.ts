import { CommandResult, TableCommand } from '../table-command';
import type { EndShoeCommand } from './end-shoe.command';

export class EndShoe extends TableCommand {
  execute(command: EndShoeCommand): Promise<CommandResult> {
    const { tableId, by, reason } = command;
    return this.submit(tableId, { type: 'end-shoe', by, reason });
  }
}
