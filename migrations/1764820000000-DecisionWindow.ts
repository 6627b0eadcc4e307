import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The decision window a decision was taken in, for games that number their windows (Infinite
 * Blackjack). Without it a replay had to guess where one window's decisions end: a late decision
 * landing in the next window, or a player changing their mind, made the guess wrong.
 */
export class DecisionWindow1764820000000 implements MigrationInterface {
  name = 'DecisionWindow1764820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE decisions ADD COLUMN decision_window integer NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE decisions DROP COLUMN decision_window`);
  }
}
