import { CommandResult, TableCommand } from '../table-command';
import type { ApplyReadingCommand } from './apply-reading.command';

/**
 * Applies a decoded scanner reading to its table (the table decides what it means). A reading
 * not stored yet is stored by the table's transition, or on its own if it reaches no table.
 */
export class ApplyReading extends TableCommand {
  execute(command: ApplyReadingCommand): Promise<CommandResult> {
    const { tableId, readingId, reading, unstored } = command;
    if (!unstored) return this.submit(tableId, { type: 'reading', readingId, reading });
    const lookup = this.tables.get(tableId);
    if (!lookup.ok) {
      unstored.storeAlone();
      return Promise.resolve({ accepted: false, code: lookup.code, message: lookup.message });
    }
    return lookup.runtime.submitReading(reading, unstored);
  }
}
