import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lease fence stops holding up the lease's renewal.
 *
 * Every table write locked its lease row FOR SHARE, and the renewal (an UPDATE) waits for share
 * locks. A busy table commits with two transactions in flight, one starting before the other
 * ends, so a share lock was held without a gap: PostgreSQL lets a new share locker in beside the
 * old ones while the UPDATE waits, and the renewal starved until the lease lapsed. The owner then
 * lost its own table as after a crash (measured: a renewal waited 4.7 s under overlapping 0.3 s
 * share locks, and returned in 35 ms under key-share locks).
 *
 * Now the fence takes FOR KEY SHARE, and the epoch becomes a key column (the unique index below).
 * PostgreSQL's row locks then give exactly what the fence needs:
 * - a takeover changes the epoch, a key update (FOR UPDATE mode): it still waits until every
 *   write of the previous owner that passed the fence has ended, so none commits after it;
 * - a renewal or a release changes only the expiry (FOR NO KEY UPDATE mode): it no longer waits.
 *
 * The lock clause is in the transition functions' files (`src/history/sql/studio_commit_transition
 * .sql`, `studio_commit_transitions.sql`). This migration used to rewrite the two bodies the
 * database held (FOR SHARE to FOR KEY SHARE, by string replacement). It no longer touches them: on a
 * fresh database the earlier migrations already apply the files, FOR KEY SHARE and all; on one
 * migrated long ago, where this migration ran as it was, the repeatable step after the versioned
 * migrations replaces whatever body is held with the file's (migrations/functions.ts). Its down
 * leaves them too: the bodies belong to the files, not to a point in the history.
 */
export class LeaseFenceKeyShare1764870000000 implements MigrationInterface {
  name = 'LeaseFenceKeyShare1764870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNIQUE INDEX table_leases_table_epoch ON table_leases (table_id, epoch)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX table_leases_table_epoch`);
  }
}
