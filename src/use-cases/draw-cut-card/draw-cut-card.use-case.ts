import { TableCommand } from '../common/table-command';
import type { CommandResult } from '../common/tables.port';
import type { DrawCutCardCommand } from './draw-cut-card.command';

export class DrawCutCard extends TableCommand {
  execute(command: DrawCutCardCommand): Promise<CommandResult> {
    return this.submit(command.tableId, { type: 'cut-card', by: command.by });
  }
}
