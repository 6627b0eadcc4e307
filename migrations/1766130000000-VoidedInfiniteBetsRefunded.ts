import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Infinite Blackjack settled a voided round's bets with the engine's outcome `void`, where every
 * other game (and the docs, the store's status and the platforms' reports) say `void-refund`:
 * such bets were left `settled`, not `refunded`. New rounds say `void-refund`. The settlement rows
 * already stored keep their outcome (it is what their chained events recorded, which replay checks
 * them against); their bets are marked refunded here, and the reports read `void` as a refund.
 */
export class VoidedInfiniteBetsRefunded1766130000000 implements MigrationInterface {
  name = 'VoidedInfiniteBetsRefunded1766130000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE bets b SET status = 'refunded'
        FROM settlements s
       WHERE s.bet_id = b.id AND s.outcome = 'void' AND b.status = 'settled'`);
  }

  async down(): Promise<void> {
    // A refunded bet stays refunded: its round was voided, whatever the outcome's spelling.
  }
}
