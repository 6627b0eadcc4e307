import { CommandResult, TableCommand } from '../table-command';
import type { ApplyReadingCommand } from './apply-reading.command';

/** Applies a decoded, stored scanner reading to its table (the table decides what it means). */
export class ApplyReading extends TableCommand {
  execute(command: ApplyReadingCommand): Promise<CommandResult> {
    const { tableId, readingId, reading } = command;
    return this.submit(tableId, { type: 'reading', readingId, reading });
  }
}
