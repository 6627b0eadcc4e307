import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';

/** Cards as dealt (burns too), corrected before their reveal, and revealed. */
export class RoundCardsRepository {
  async write(manager: EntityManager, tableId: string, w: TableWrites, at: Date): Promise<void> {
    for (const card of w.cards) await this.insertCard(manager, tableId, card, at);
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
