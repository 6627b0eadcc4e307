import type { AuditQuery } from './audit-query';
import { AuditRequestError } from './audit-query';
import { parseRoundFilter, roundWhere, RoundSearchQuery } from './search-rounds.use-case';

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
  constructor(private readonly q: AuditQuery) {}

  validate(query: RoundSearchQuery & { format?: string }): ExportFormat {
    const format = query.format ?? 'ndjson';
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
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const where = roundWhere(filter, after, 'asc');
      const rows = await this.q<{
        id: string;
        table_id: string;
        game: string;
        shoe_id: string | null;
        shoe_number: number;
        round_number: number;
        status: string;
        started_at: Date;
        ended_at: Date | null;
        void_reason: string | null;
        started_key: string;
        bets: number;
        staked: string | null;
        returned: string | null;
        net: string | null;
      }>(
        `SELECT r.id, r.table_id, r.game, r.shoe_id, r.shoe_number, r.round_number, r.status,
                r.started_at, r.ended_at, r.void_reason, r.started_at::text AS started_key,
                s.bets, s.staked, s.returned, s.net
           FROM rounds r
           LEFT JOIN LATERAL (
             SELECT count(*)::int AS bets, sum(stake) AS staked, sum(returned) AS returned, sum(net) AS net
               FROM settlements WHERE round_id = r.id) s ON true
           ${where.sql}
          ORDER BY r.started_at, r.id LIMIT ${BATCH}`,
        where.params,
      );
      if (rows.length === 0) return;
      yield rows.map((r) => ({
        roundId: r.id,
        tableId: r.table_id,
        game: r.game,
        shoeId: r.shoe_id,
        shoeNumber: r.shoe_number,
        roundNumber: r.round_number,
        status: r.status,
        startedAt: new Date(r.started_at).toISOString(),
        endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
        voidReason: r.void_reason,
        bets: r.bets,
        staked: Number(r.staked ?? 0),
        returned: Number(r.returned ?? 0),
        net: Number(r.net ?? 0),
      }));
      if (rows.length < BATCH) return;
      const last = rows[rows.length - 1];
      after = { at: last.started_key, id: last.id };
    }
  }
}
