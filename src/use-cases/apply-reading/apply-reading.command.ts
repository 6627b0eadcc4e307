import type { ReadingRecord } from '../common/tables.port';

/** A decoded scanner reading for its table, not stored yet: its table's transition stores it. */
export class ApplyReadingCommand {
  private constructor(readonly record: ReadingRecord) {}

  static create(record: ReadingRecord): ApplyReadingCommand {
    return new ApplyReadingCommand(record);
  }

  get tableId(): string {
    return this.record.tableId;
  }
}
