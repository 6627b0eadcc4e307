import type { ScannerReading } from '@studio/scanner-protocol';

/** A decoded scanner reading, already stored raw (`readingId`), for its table. */
export class ApplyReadingCommand {
  private constructor(
    readonly tableId: string,
    readonly readingId: string | null,
    readonly reading: ScannerReading,
  ) {}

  static create(input: {
    tableId: string;
    readingId: string | null;
    reading: ScannerReading;
  }): ApplyReadingCommand {
    return new ApplyReadingCommand(input.tableId, input.readingId, input.reading);
  }
}
