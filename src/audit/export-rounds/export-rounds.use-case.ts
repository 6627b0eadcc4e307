import { historyReader, HistorySource } from '../../history/reader/history-reader';
import type { Keyset } from '../../history/reader/rounds.reader';
import type { ExportRoundsQuery } from './export-rounds.query';
import { csvHeader, csvLines, ExportRow } from './rounds-csv';

const BATCH = 2_000;

/**
 * Rounds of a time range with their settlement totals per platform and currency (a line each),
 * oldest first, as CSV or NDJSON. Streamed:
 * read in keyset batches and written as they come, so an export of millions of rounds holds one
 * batch in memory and the first bytes leave at once. NDJSON carries every value exactly as stored
 * (JSON has types: no reader evaluates a string); only the CSV, made for spreadsheets, escapes.
 */
export class ExportRounds {
  constructor(private readonly source: HistorySource) {}

  /** The export as text chunks (a header line first for CSV). */
  async *chunks(query: ExportRoundsQuery): AsyncGenerator<string> {
    if (query.format === 'csv') yield csvHeader();
    for await (const batch of this.batches(query)) {
      yield query.format === 'csv'
        ? csvLines(batch)
        : batch.map((row) => `${JSON.stringify(row)}\n`).join('');
    }
  }

  async *batches(query: Pick<ExportRoundsQuery, 'filter'>): AsyncGenerator<ExportRow[]> {
    let after: Keyset | undefined;
    for (;;) {
      const rows = await historyReader(this.source).rounds.withTotals(query.filter, after, BATCH);
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
        platformId: r.platformId,
        currency: r.currency,
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
