import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

/** A reading of the card reader exactly as received, with what the table made of it. */
export interface ReadingRecord {
  readingId: string;
  port: string;
  wireFormat: string;
  readingKind: string;
  raw: Buffer;
  decoded: Record<string, unknown>;
  deviceSeq: number | null;
  receivedAt: string;
  outcome: string;
  outcomeDetail: unknown;
}

/** What became of a reading as its row says now, found by when it came and its frame number. */
export interface ReadingOutcomeRecord {
  /** ISO 8601 UTC with milliseconds, as the chained ReadingProcessed names it. */
  receivedAt: string;
  sequence: number | null;
  outcome: string;
}

/** scanner_readings. */
export class ReadingsReader {
  constructor(private readonly q: HistoryQuery) {}

  /** Card readings, rescans and garbage a table's reader sent in [from, to] (to: now if null). */
  async ofTableBetween(tableId: string, from: Date, to: Date | null): Promise<ReadingRecord[]> {
    const rows = await this.q<{
      id: string;
      port: string;
      wire_format: string;
      kind: string;
      raw: Buffer;
      decoded: Record<string, unknown>;
      device_seq: number | null;
      received_at: Date;
      outcome: string;
      outcome_detail: unknown;
    }>(
      `SELECT id, port, wire_format, kind, raw, decoded, device_seq, received_at, outcome, outcome_detail
         FROM scanner_readings
        WHERE table_id = $1 AND received_at >= $2 AND received_at <= COALESCE($3, now())
          AND kind IN ('card', 'unrecognised', 'invalid')
        ORDER BY received_at, id`,
      [tableId, from, to],
    );
    return rows.map((r) => ({
      readingId: String(r.id),
      port: r.port,
      wireFormat: r.wire_format,
      readingKind: r.kind,
      raw: Buffer.from(r.raw),
      decoded: r.decoded,
      deviceSeq: r.device_seq,
      receivedAt: iso(r.received_at)!,
      outcome: r.outcome,
      outcomeDetail: r.outcome_detail,
    }));
  }

  /**
   * The outcomes of the table's readings (no heartbeats or status frames) that came at any of
   * `receivedAts` (ISO 8601), in the order stored: what replay compares with the chain.
   */
  async outcomesAt(
    tableId: string,
    receivedAts: readonly string[],
  ): Promise<ReadingOutcomeRecord[]> {
    if (receivedAts.length === 0) return [];
    return this.q<ReadingOutcomeRecord>(
      `SELECT to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "receivedAt",
              device_seq AS sequence, outcome
         FROM scanner_readings
        WHERE table_id = $1 AND received_at = ANY($2::timestamptz[])
          AND kind NOT IN ('heartbeat', 'status')
        ORDER BY id`,
      [tableId, receivedAts],
    );
  }
}
