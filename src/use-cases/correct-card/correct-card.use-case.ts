import { TableCommand } from '../common/table-command';
import type { CommandResult } from '../common/tables.port';
import type { CorrectCardCommand } from './correct-card.command';

export class CorrectCard extends TableCommand {
  execute(command: CorrectCardCommand): Promise<CommandResult> {
    const { tableId, by, slot, card, reason } = command;
    const meant = command.roundId ? { roundId: command.roundId } : {};
    return this.submit(tableId, { type: 'correct-card', by, slot, card, reason, ...meant });
  }
}
