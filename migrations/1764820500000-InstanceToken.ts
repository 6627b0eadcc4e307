import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each running process announces itself with a token of its own: a second process started with
 * an instance id that a live process already uses is refused, instead of both driving the same
 * tables under one lease owner.
 */
export class InstanceToken1764820500000 implements MigrationInterface {
  name = 'InstanceToken1764820500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE studio_instances ADD COLUMN token text NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE studio_instances DROP COLUMN token`);
  }
}
