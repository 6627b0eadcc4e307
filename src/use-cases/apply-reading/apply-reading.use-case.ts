import type { CommandResult, Tables } from '../common/tables.port';
import type { ApplyReadingCommand } from './apply-reading.command';

/**
 * Applies a decoded scanner reading to its table (the table decides what it means). The reading is
 * stored by the transition that applies it, or on its own if none does (see Tables.submitReading).
 */
export class ApplyReading {
  constructor(private readonly tables: Tables) {}

  execute(command: ApplyReadingCommand): Promise<CommandResult> {
    return this.tables.submitReading(command.record);
  }
}
