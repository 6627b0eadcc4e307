import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each round keeps the table configuration (rules, limits, windows) it was played under, so that
 * replaying it years later uses those rules even after the table was reconfigured. Rounds from
 * before this migration get the configuration the table has now, the best that is known.
 */
export class RoundConfigurationSnapshot1764500000000 implements MigrationInterface {
  name = 'RoundConfigurationSnapshot1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rounds ADD COLUMN configuration jsonb NULL`);
    await queryRunner.query(
      `UPDATE rounds r SET configuration = t.configuration FROM studio_tables t WHERE t.id = r.table_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rounds DROP COLUMN configuration`);
  }
}
