import { stringify } from 'csv-stringify/sync';
import type { SettlementReportLine } from '../history/reader/platform-records.reader';

/** The report's columns: a line per UTC day, table and currency, then that currency's figures. */
export const REPORT_COLUMNS: (keyof SettlementReportLine)[] = [
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
];

/**
 * The settlement report as CSV (RFC 4180, CRLF, formulas escaped): one record per line of the
 * report, as the database grouped it (day, table, currency), never two currencies in one record.
 */
export function settlementReportCsv(lines: readonly SettlementReportLine[]): string {
  return stringify(lines as SettlementReportLine[], {
    header: true,
    columns: REPORT_COLUMNS,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
}
