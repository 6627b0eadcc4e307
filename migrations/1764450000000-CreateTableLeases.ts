import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which instance drives which table. A lease has an owner, an epoch that increases with every
 * change of owner (a fencing token: writes of a table check owner and epoch in their transaction),
 * and an expiry in database time so instances with skewed clocks agree.
 */
export class CreateTableLeases1764450000000 implements MigrationInterface {
  name = 'CreateTableLeases1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE table_leases (
        table_id text PRIMARY KEY REFERENCES studio_tables(id),
        owner text NOT NULL,
        epoch bigint NOT NULL,
        acquired_at timestamptz NOT NULL,
        renewed_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE table_leases`);
  }
}
