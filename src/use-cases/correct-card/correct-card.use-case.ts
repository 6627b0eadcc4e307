import { CommandResult, TableCommand } from '../table-command';
import type { CorrectCardCommand } from './correct-card.command';

export class CorrectCard extends TableCommand {
  execute(command: CorrectCardCommand): Promise<CommandResult> {
    const { tableId, by, slot, card, reason } = command;
    return this.submit(tableId, { type: 'correct-card', by, slot, card, reason });
  }
}
