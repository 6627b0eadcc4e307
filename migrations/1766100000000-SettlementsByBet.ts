import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A player's bet history finds each bet's settlement by its round and bet id. With only
 * `(round_id)` indexed, every bet of the page read all its round's settlements to keep one: 200
 * rows a bet at a demo-crowd Infinite Blackjack round, 10,000 at a table of 10,000 players (the
 * history bench at 150,000 rounds: 15.9 ms a page, against 3.9 ms on an empty history). The
 * index keyed by round and bet answers it with one probe, and every use of the round alone
 * still has its leading key: it replaces the old index, so the round end keeps one index on
 * `round_id` to write, not two.
 *
 * Built CONCURRENTLY, outside a transaction: a plain CREATE INDEX would hold every round end of
 * the studio (settlements are written then) for as long as the build takes, minutes on a year of
 * history, while instances still on the previous version play on. A build cut short leaves an
 * invalid index of that name, dropped and built again by the next start.
 */
export class SettlementsByBet1766100000000 implements MigrationInterface {
  name = 'SettlementsByBet1766100000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                    WHERE c.relname = 'settlements_round_bet_idx' AND NOT i.indisvalid) THEN
          DROP INDEX settlements_round_bet_idx;
        END IF;
      END $$`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS settlements_round_bet_idx
         ON settlements (round_id, bet_id)`,
    );
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_round_idx`);
  }

  /** Reverted in a transaction (TypeORM reverts every migration in one): plainly, not concurrently. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX settlements_round_idx ON settlements (round_id)`);
    await queryRunner.query(`DROP INDEX settlements_round_bet_idx`);
  }
}
