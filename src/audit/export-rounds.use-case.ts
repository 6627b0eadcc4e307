import { historyReader, HistorySource } from '../history/reader/history-reader';
import type { Keyset } from '../history/reader/rounds.reader';
import { textParam } from './audit-params';
import { AuditRequestError } from './audit-query';
import { parseRoundFilter, RoundSearchQuery } from './search-rounds.use-case';

export type ExportFormat = 'csv' | 'ndjson';

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
  'bets',
  'staked',
  'returned',
  'net',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

const BATCH = 2_000;

/** A CSV field: quoted when it holds a comma, quote or line break; quotes doubled (RFC 4180). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(row: ExportRow): string {
  return `${EXPORT_COLUMNS.map((c) => csvField(row[c])).join(',')}\r\n`;
}

/**
 * Rounds of a time range with their settlement totals, oldest first, as CSV or NDJSON. Streamed:
 * read in keyset batches and written as they come, so an export of millions of rounds holds one
 * batch in memory and the first bytes leave at once.
 */
export class ExportRounds {
  constructor(private readonly source: HistorySource) {}

  /** Every parameter checked before the answer starts streaming (a 400 cannot follow a 200). */
  validate(query: RoundSearchQuery & { format?: string }): ExportFormat {
    const format = textParam('format', query.format) ?? 'ndjson';
    if (format !== 'csv' && format !== 'ndjson') {
      throw new AuditRequestError('bad-request', 'format must be csv or ndjson');
    }
    const filter = parseRoundFilter(query);
    if (!filter.from || !filter.to) {
      throw new AuditRequestError('bad-request', 'an export needs a time range: from and to');
    }
    return format;
  }

  /** The export as text chunks (a header line first for CSV). */
  async *chunks(query: RoundSearchQuery, format: ExportFormat): AsyncGenerator<string> {
    if (format === 'csv') yield `${EXPORT_COLUMNS.join(',')}\r\n`;
    for await (const batch of this.batches(query)) {
      yield batch
        .map((row) => (format === 'csv' ? csvLine(row) : `${JSON.stringify(row)}\n`))
        .join('');
    }
  }

  async *batches(query: RoundSearchQuery): AsyncGenerator<ExportRow[]> {
    const filter = parseRoundFilter(query);
    let after: Keyset | undefined;
    for (;;) {
      const rows = await historyReader(this.source).rounds.withTotals(filter, after, BATCH);
      if (rows.length === 0) return;
      yield rows.map((r) => ({
        roundId: r.id,
        tableId: r.tableId,
        game: r.game,
        shoeId: r.shoeId,
        shoeNumber: r.shoeNumber,
        roundNumber: r.roundNumber,
        status: r.status,
        startedAt: r.startedAt,
        endedAt: r.endedAt,
        voidReason: r.voidReason,
        bets: r.bets,
        staked: r.staked,
        returned: r.returned,
        net: r.net,
      }));
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].key;
    }
  }
}
