import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A table's state as a snapshot plus the changes since: rewriting a 100,000-player state (~3 MB)
 * for every batch of a decision window cost more than the batch itself. `snapshot_version` is the
 * version the stored `state` is at; each later version's change is a row of `table_state_deltas`.
 * Existing states (NULL) are snapshots of their own version.
 */
export class TableStateDeltas1764600000000 implements MigrationInterface {
  name = 'TableStateDeltas1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // NULL reads as "the state is a snapshot of its own version": rows written whole (by this
    // migration's predecessors, or by hand) need no deltas.
    await queryRunner.query(`ALTER TABLE table_state ADD COLUMN snapshot_version bigint NULL`);
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
    // A state with deltas after its snapshot would go back to the snapshot: refuse instead.
    const behind = await queryRunner.query(
      `SELECT table_id FROM table_state WHERE coalesce(snapshot_version, version) < version`,
    );
    if (behind.length > 0) {
      throw new Error(
        `table_state of ${behind.map((r: { table_id: string }) => r.table_id).join(', ')} has deltas after its snapshot`,
      );
    }
    await queryRunner.query(`DROP TABLE table_state_deltas`);
    await queryRunner.query(`ALTER TABLE table_state DROP COLUMN snapshot_version`);
  }
}
