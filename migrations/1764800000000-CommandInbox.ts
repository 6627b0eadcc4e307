import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commands read by an instance that does not drive their table wait here for the table's owner,
 * which applies them in `id` order and answers them (issue 15). One row per command, unique per
 * table and command id, so a command read twice (a redelivery after a rebalance) waits once.
 * `answer` is set for a command that came over HTTP: the instance holding the request reads it.
 *
 * `table_leases.released` tells the next owner that the last one stopped gracefully (every reading
 * it received committed), so a round in flight continues at once instead of pausing.
 */
export class CommandInbox1764800000000 implements MigrationInterface {
  name = 'CommandInbox1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE command_inbox (
         id bigserial PRIMARY KEY,
         table_id text NOT NULL,
         command_id text NOT NULL,
         reply_to text NOT NULL CHECK (reply_to IN ('kafka', 'http')),
         command jsonb NOT NULL,
         received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
         answer jsonb NULL,
         expiring_at timestamptz NULL
       )`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX command_inbox_table_command ON command_inbox (table_id, command_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX command_inbox_waiting ON command_inbox (table_id, id) WHERE answer IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE table_leases ADD COLUMN released boolean NOT NULL DEFAULT false`,
    );
    // The live instances of the studio, so each can drive its fair share of the tables.
    await queryRunner.query(
      `CREATE TABLE studio_instances (
         instance_id text PRIMARY KEY,
         expires_at timestamptz NOT NULL
       )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE studio_instances`);
    await queryRunner.query(`ALTER TABLE table_leases DROP COLUMN released`);
    await queryRunner.query(`DROP TABLE command_inbox`);
  }
}
