import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hash chain's algorithm, versioned per event (docs/chain.md): the events written so far keep
 * version 1 (the home-made canonical form) and verify as before; the service writes version 2
 * (RFC 8785 with a per-event salt) from now on. `chain_salt` is null for version 1.
 */
export class ChainVersions1765210000000 implements MigrationInterface {
  name = 'ChainVersions1765210000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE round_events
         ADD COLUMN chain_version smallint NOT NULL DEFAULT 1 CHECK (chain_version IN (1, 2)),
         ADD COLUMN chain_salt text NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE round_events DROP COLUMN chain_salt, DROP COLUMN chain_version`,
    );
  }
}
