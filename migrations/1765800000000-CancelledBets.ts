import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A platform may take back its player's bet while betting is open (CancelBet): the bet keeps its
 * row, marked `cancelled` (its settlements row says `cancelled`, returned = stake, net 0), so the
 * platform's report counts it among the cancellations and never among the stakes or payouts.
 */
export class CancelledBets1765800000000 implements MigrationInterface {
  name = 'CancelledBets1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets DROP CONSTRAINT bets_status_check`);
    await queryRunner.query(
      `ALTER TABLE bets ADD CONSTRAINT bets_status_check
         CHECK (status IN ('accepted', 'settled', 'refunded', 'cancelled'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets DROP CONSTRAINT bets_status_check`);
    await queryRunner.query(
      `ALTER TABLE bets ADD CONSTRAINT bets_status_check
         CHECK (status IN ('accepted', 'settled', 'refunded'))`,
    );
  }
}
