import { stringify } from 'csv-stringify/sync';

export const EXPORT_COLUMNS = [
  'roundId',
  'tableId',
  'game',
  'shoeId',
  'shoeNumber',
  'roundNumber',
  'status',
  'startedAt',
  'endedAt',
  'voidReason',
  'platformId',
  'currency',
  'bets',
  'staked',
  'returned',
  'net',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

/**
 * RFC 4180 (quotes doubled, CRLF) through csv-stringify, with its formula escaping: a text cell
 * starting with `=`, `+`, `-`, `@`, tab or CR (or their full-width forms) gets a leading `'`, so a
 * spreadsheet shows a void reason like `=HYPERLINK(…)` as text instead of running it (OWASP CSV
 * injection). Numbers are numbers and stay as they are (`-2500`); null is an empty cell.
 */
const OPTIONS = {
  columns: [...EXPORT_COLUMNS],
  record_delimiter: 'windows',
  // Any line break in a cell is quoted, not only the CRLF that ends a record.
  quote_record_delimiter: true,
  escape_formulas: true,
} as const;

export function csvHeader(): string {
  return stringify([], { ...OPTIONS, header: true });
}

export function csvLines(rows: readonly ExportRow[]): string {
  return stringify(rows as ExportRow[], OPTIONS);
}
