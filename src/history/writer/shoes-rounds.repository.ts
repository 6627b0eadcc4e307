import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';

/** Shoes and rounds: opened, finished, and each round's status as it moves. */
export class ShoesRoundsRepository {
  async write(manager: EntityManager, tableId: string, w: TableWrites, at: Date): Promise<void> {
    if (w.newShoe) await this.insertShoe(manager, tableId, w.newShoe, at);
    if (w.finishShoe) await this.finishShoe(manager, w.finishShoe, at);
    if (w.newRound) await this.insertRound(manager, tableId, w.newRound, at);
    if (w.roundStatus) await this.updateRound(manager, w.roundStatus, at);
  }

  private async insertShoe(
    manager: EntityManager,
    tableId: string,
    shoe: NonNullable<TableWrites['newShoe']>,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
       VALUES ($1, $2, $3, $4, 'open', $5)`,
      [shoe.id, tableId, shoe.shoeNumber, shoe.deckCount, at],
    );
  }

  private async finishShoe(
    manager: EntityManager,
    finish: NonNullable<TableWrites['finishShoe']>,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE shoes SET status = 'finished', finished_at = $2, finish_reason = $3 WHERE id = $1`,
      [finish.id, at, finish.reason],
    );
  }

  private async insertRound(
    manager: EntityManager,
    tableId: string,
    r: NonNullable<TableWrites['newRound']>,
    at: Date,
  ): Promise<void> {
    await manager.query(
      // The configuration the round is played under, kept with it for replay.
      `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, configuration)
       SELECT $1, $2, $3, $4, $5, game, 'in-progress', 'started', $6, configuration FROM studio_tables WHERE id = $2`,
      [r.id, tableId, r.shoeId, r.shoeNumber, r.roundNumber, at],
    );
  }

  private async updateRound(
    manager: EntityManager,
    s: NonNullable<TableWrites['roundStatus']>,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE rounds SET status = $2, phase = $3,
              ended_at = CASE WHEN $4 THEN $5::timestamptz ELSE ended_at END,
              void_reason = COALESCE($6, void_reason),
              final_state = COALESCE($7::jsonb, final_state)
        WHERE id = $1`,
      [
        s.id,
        s.status,
        s.phase,
        s.ended,
        at,
        s.voidReason ?? null,
        s.finalState === undefined ? null : JSON.stringify(s.finalState),
      ],
    );
  }
}
