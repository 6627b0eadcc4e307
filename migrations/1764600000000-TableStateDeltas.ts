import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A table's state as a snapshot plus the changes since: rewriting a 100,000-player state (~3 MB)
 * for every batch of a decision window cost more than the batch itself. `snapshot_version` is the
 * version the stored `state` is at; each later version's change is a row of `table_state_deltas`.
 * Existing states are snapshots of their own version.
 */
export class TableStateDeltas1764600000000 implements MigrationInterface {
  name = 'TableStateDeltas1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE table_state ADD COLUMN snapshot_version bigint`);
    await queryRunner.query(`UPDATE table_state SET snapshot_version = version`);
    await queryRunner.query(`ALTER TABLE table_state ALTER COLUMN snapshot_version SET NOT NULL`);
    await queryRunner.query(
      `CREATE TABLE table_state_deltas (
         table_id text NOT NULL,
         version bigint NOT NULL,
         delta json NOT NULL,
         PRIMARY KEY (table_id, version)
       )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE table_state_deltas`);
    await queryRunner.query(`ALTER TABLE table_state DROP COLUMN snapshot_version`);
  }
}
