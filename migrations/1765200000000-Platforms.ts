import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Casino platforms as records of their own: each has its currencies, a status an operator can
 * suspend, and API keys stored only as hashes (several active at once, so a key can be rotated;
 * revoked by time, so every instance sees it on its next look-up). Players are (platform, player).
 */
export class Platforms1765200000000 implements MigrationInterface {
  name = 'Platforms1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE platforms (
         id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
         name text NOT NULL,
         currencies text[] NOT NULL CHECK (cardinality(currencies) > 0),
         status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
         created_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE platform_api_keys (
         id text PRIMARY KEY,
         platform_id text NOT NULL REFERENCES platforms (id),
         key_hash bytea NOT NULL UNIQUE,
         label text NOT NULL DEFAULT '',
         created_at timestamptz NOT NULL,
         revoked_at timestamptz
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX platform_api_keys_by_platform ON platform_api_keys (platform_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE platform_api_keys`);
    await queryRunner.query(`DROP TABLE platforms`);
  }
}
