import { stringify } from 'csv-stringify/sync';
import type { SettlementReportLine } from '../history/reader/platform-records.reader';
import type { ReportCompleteness } from './settlement-report-completeness';

type ReportRecord = SettlementReportLine & Pick<ReportCompleteness, 'final' | 'openRounds'>;

/**
 * The report's columns: a line per UTC day, table and currency, then that currency's figures;
 * columns added later come after `net`, so a reader of the first ten finds them where they were.
 * `final` and `openRounds` are the whole report's (repeated on each record), not the line's.
 */
export const REPORT_COLUMNS: (keyof ReportRecord)[] = [
  'day',
  'tableId',
  'currency',
  'rounds',
  'bets',
  'stake',
  'payout',
  'refunds',
  'cancellations',
  'net',
  'cancelledStake',
  'final',
  'openRounds',
];

/**
 * The settlement report as CSV (RFC 4180, CRLF, formulas escaped): one record per line of the
 * report, as the database grouped it (day, table, currency), never two currencies in one record.
 * Every record has the same columns (no trailer a CSV reader would take for a short record);
 * `final` reads `true` or `false`.
 */
export function settlementReportCsv(
  lines: readonly SettlementReportLine[],
  completeness: Pick<ReportCompleteness, 'final' | 'openRounds'>,
): string {
  const records: ReportRecord[] = lines.map((line) => ({
    ...line,
    final: completeness.final,
    openRounds: completeness.openRounds,
  }));
  return stringify(records, {
    header: true,
    columns: REPORT_COLUMNS,
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}
