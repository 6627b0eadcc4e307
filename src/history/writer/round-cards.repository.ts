import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { decodedOf, ReadingRecord } from '../scanner-history.repository';

/**
 * The reading id a table is given for a reading not stored yet: its row is written by the
 * transition that applies it, and the transition's rows that name it get the row's id.
 */
export const UNSTORED_READING = 'unstored';

/** A reading row as the one-call path sends it (the outcome is the transition's). */
export function readingRow(record: ReadingRecord, w: TableWrites): Record<string, unknown> {
  const outcome = w.readingOutcome?.readingId === UNSTORED_READING ? w.readingOutcome : undefined;
  return {
    port: record.port,
    wireFormat: record.wireFormat,
    kind: record.reading.kind,
    rawHex: Buffer.from(record.reading.raw).toString('hex'),
    decoded: decodedOf(record.reading),
    deviceSeq: record.reading.sequence ?? null,
    receivedAt: new Date(record.reading.receivedAt).toISOString(),
    outcome: outcome?.outcome ?? record.outcome,
    outcomeDetail: outcome ? outcome.detail : (record.outcomeDetail ?? null),
  };
}

/** Cards as dealt (burns too), corrected before their reveal, and revealed. */
export class RoundCardsRepository {
  /** `readingId`: the row id of the transition's own reading (stored in the same transaction). */
  async write(
    manager: EntityManager,
    tableId: string,
    w: TableWrites,
    at: Date,
    readingId?: string,
  ): Promise<void> {
    for (const card of w.cards) {
      const own = card.readingId === UNSTORED_READING;
      await this.insertCard(
        manager,
        tableId,
        own ? { ...card, readingId: readingId ?? null } : card,
        at,
      );
    }
    for (const fix of w.corrections) await this.correct(manager, tableId, fix, at);
    for (const r of w.reveals) {
      await manager.query(
        `UPDATE round_cards SET revealed_at = $3
          WHERE round_id = $1 AND slot = $2 AND revealed_at IS NULL AND corrected_by_id IS NULL`,
        [r.roundId, r.slot, at],
      );
    }
  }

  private async insertCard(
    manager: EntityManager,
    tableId: string,
    c: TableWrites['cards'][number],
    at: Date,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, revealed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        c.roundId,
        c.shoeId,
        tableId,
        c.slot,
        c.card,
        c.readingId,
        c.faceDown,
        at,
        c.faceDown ? null : at,
      ],
    );
  }

  /** The replacement card is a new row; the corrected one points at it and is kept. */
  private async correct(
    manager: EntityManager,
    tableId: string,
    fix: TableWrites['corrections'][number],
    at: Date,
  ): Promise<void> {
    const [old] = await manager.query(
      `SELECT id, shoe_id, reading_id FROM round_cards
        WHERE round_id = $1 AND slot = $2 AND corrected_by_id IS NULL ORDER BY id DESC LIMIT 1`,
      [fix.roundId, fix.slot],
    );
    const [created] = await manager.query(
      `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, correction_reason)
       VALUES ($1, $2, $3, $4, $5, NULL, true, $6, $7) RETURNING id`,
      [fix.roundId, old.shoe_id, tableId, fix.slot, fix.card, at, fix.reason],
    );
    await manager.query(`UPDATE round_cards SET corrected_by_id = $2 WHERE id = $1`, [
      old.id,
      created.id,
    ]);
  }
}

/** What became of a stored scanner reading (applied, rejected, duplicate...). */
export class ReadingOutcomeRepository {
  /** Stores the transition's own reading with its outcome; returns the row id. */
  async insert(
    manager: EntityManager,
    tableId: string,
    record: ReadingRecord,
    w: TableWrites,
  ): Promise<string> {
    const row = readingRow(record, w);
    const [stored] = await manager.query(
      `INSERT INTO scanner_readings (table_id, port, wire_format, kind, raw, decoded, device_seq, received_at, outcome, outcome_detail)
       VALUES ($1, $2, $3, $4, decode($5, 'hex'), $6, $7, $8, $9, $10) RETURNING id`,
      [
        tableId,
        row.port,
        row.wireFormat,
        row.kind,
        row.rawHex,
        JSON.stringify(row.decoded),
        row.deviceSeq,
        row.receivedAt,
        row.outcome,
        row.outcomeDetail === null ? null : JSON.stringify(row.outcomeDetail),
      ],
    );
    return String(stored.id);
  }

  async write(manager: EntityManager, tableId: string, w: TableWrites): Promise<void> {
    const outcome = w.readingOutcome;
    // Readings replayed in tests carry made-up ids; only stored readings have numeric ones.
    if (!outcome || !/^\d+$/.test(outcome.readingId)) return;
    await manager.query(
      `UPDATE scanner_readings SET outcome = $2, outcome_detail = $3 WHERE id = $1 AND table_id = $4`,
      [outcome.readingId, outcome.outcome, outcome.detail, tableId],
    );
  }
}
