import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An instance that holds a session-level advisory lock on a connection of its own says so in its
 * presence row: when that lock is gone (PostgreSQL ends a dead client's session at once), the
 * others expire its leases and take its tables without waiting for the TTL. Instances that do not
 * say so (the embedded database, older versions) are judged by the TTL alone, as before.
 */
export class SessionLiveness1765250000000 implements MigrationInterface {
  name = 'SessionLiveness1765250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE studio_instances ADD COLUMN session_liveness boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE studio_instances DROP COLUMN session_liveness`);
  }
}
