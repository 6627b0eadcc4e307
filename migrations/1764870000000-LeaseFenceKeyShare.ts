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
 * The two transition functions are redefined from their current text with the lock clause
 * changed, so their (long) bodies are not repeated here; the migration fails if the clause it
 * changes is not found, rather than leaving a function with the old lock.
 */
export class LeaseFenceKeyShare1764870000000 implements MigrationInterface {
  name = 'LeaseFenceKeyShare1764870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNIQUE INDEX table_leases_table_epoch ON table_leases (table_id, epoch)`,
    );
    await relock(queryRunner, 'FOR SHARE;', 'FOR KEY SHARE;');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await relock(queryRunner, 'FOR KEY SHARE;', 'FOR SHARE;');
    await queryRunner.query(`DROP INDEX table_leases_table_epoch`);
  }
}

const FENCED_FUNCTIONS = [
  'studio_commit_transition(jsonb, json)',
  'studio_commit_transitions(jsonb, json[])',
];

async function relock(queryRunner: QueryRunner, from: string, to: string): Promise<void> {
  for (const signature of FENCED_FUNCTIONS) {
    await queryRunner.query(
      `DO $do$
       DECLARE
         definition text := pg_get_functiondef(${quote(signature)}::regprocedure);
       BEGIN
         IF position(${quote(from)} IN definition) = 0 THEN
           RAISE EXCEPTION 'function % has no "%" to change', ${quote(signature)}, ${quote(from)};
         END IF;
         EXECUTE replace(definition, ${quote(from)}, ${quote(to)});
       END
       $do$`,
    );
  }
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
