import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order bets were placed in, within one transaction too: a window's bets share their
 * `placed_at`, and the random bet id put them back in another order, so a replay fed them to the
 * game in an order the table never saw (and settled them in that order).
 */
export class BetPlacementOrder1764810000000 implements MigrationInterface {
  name = 'BetPlacementOrder1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets ADD COLUMN placement bigserial`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets DROP COLUMN placement`);
  }
}
