import type { ScannerReading } from '@studio/scanner-protocol';
import type { UnstoredReading } from '../../tables/table-runtime';

/**
 * A decoded scanner reading for its table: already stored raw (`readingId`), or not yet
 * (`unstored`: the table's transition stores it in its own commit).
 */
export class ApplyReadingCommand {
  private constructor(
    readonly tableId: string,
    readonly readingId: string | null,
    readonly reading: ScannerReading,
    readonly unstored?: UnstoredReading,
  ) {}

  static create(input: {
    tableId: string;
    readingId: string | null;
    reading: ScannerReading;
    unstored?: UnstoredReading;
  }): ApplyReadingCommand {
    return new ApplyReadingCommand(input.tableId, input.readingId, input.reading, input.unstored);
  }
}
