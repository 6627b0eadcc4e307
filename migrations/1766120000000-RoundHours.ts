import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * Counts every row already stored into `round_hours`, which must be empty: the migration's
 * backfill, and the history bench's after its COPY (which fires no trigger).
 */
export const COUNT_ROUND_HOURS = `
  INSERT INTO round_hours (table_id, hour, completed)
  SELECT table_id, date_trunc('hour', ended_at, 'UTC'), count(*)
    FROM rounds
   WHERE status = 'completed' AND ended_at IS NOT NULL
   GROUP BY 1, 2`;

/**
 * Each table's completed rounds per UTC hour of their end, kept beside the rounds. Live hold
 * monitoring (the supervisor console's start-up and every /metrics refresh) read every completed
 * round of the last 24 hours to count them per hour: at 150,000 rounds of history, a full day of
 * a 100-table studio, 144,000 index entries and ~170 ms a refresh. From this table it reads at
 * most 25 rows a table plus the rounds of one partial hour. Row triggers on rounds keep it
 * (`src/history/sql/studio_count_round_hours.sql`), called only when a round's status or end
 * changes; rounds completed before are counted here. Derived data: recomputable from rounds at any
 * time (docs/retention.md).
 */
export class RoundHours1766120000000 implements MigrationInterface {
  name = 'RoundHours1766120000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE round_hours (
        table_id text NOT NULL,
        hour timestamptz NOT NULL,
        completed integer NOT NULL,
        PRIMARY KEY (table_id, hour)
      )`);
    await queryRunner.query(COUNT_ROUND_HOURS);
    await applyFunctionFile(queryRunner, functionFile('studio_count_round_hours'));
    await queryRunner.query(`
      CREATE TRIGGER rounds_count_hours_written AFTER INSERT OR DELETE ON rounds
        FOR EACH ROW EXECUTE FUNCTION studio_count_round_hours()`);
    await queryRunner.query(`
      CREATE TRIGGER rounds_count_hours_changed AFTER UPDATE OF status, ended_at ON rounds
        FOR EACH ROW
        WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.ended_at IS DISTINCT FROM NEW.ended_at)
        EXECUTE FUNCTION studio_count_round_hours()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER rounds_count_hours_changed ON rounds`);
    await queryRunner.query(`DROP TRIGGER rounds_count_hours_written ON rounds`);
    await queryRunner.query(`DROP FUNCTION studio_count_round_hours()`);
    await queryRunner.query(`DROP TABLE round_hours`);
  }
}
