import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * Counts every row already stored into `scanner_reading_hours`, which must be empty: the
 * migration's backfill, and the history bench's after its COPY (which fires no trigger).
 */
export const COUNT_SCANNER_READING_HOURS = `
  INSERT INTO scanner_reading_hours (table_id, hour, cards, unrecognised)
  SELECT table_id, date_trunc('hour', received_at, 'UTC'),
         count(*) FILTER (WHERE kind = 'card'), count(*) FILTER (WHERE kind = 'unrecognised')
    FROM scanner_readings
   WHERE kind IN ('card', 'unrecognised')
   GROUP BY 1, 2`;

/**
 * Each table's cards read and unrecognised readings per UTC hour, kept beside the readings they
 * count. Live hold monitoring (the supervisor console's start-up and every /metrics refresh)
 * counted a table's readings of the last 24 hours reading by reading: at 150,000 rounds of
 * history, a full day of a 100-table studio, that was ~940 ms a refresh and grew with the
 * studio's pace. From this table it reads at most 25 rows a table plus one partial hour of
 * readings. A statement trigger on scanner_readings keeps it
 * (`src/history/sql/studio_count_scanner_readings.sql`); readings stored before are counted here.
 * It is derived data: recomputable from scanner_readings at any time (docs/retention.md).
 */
export class ScannerReadingHours1766110000000 implements MigrationInterface {
  name = 'ScannerReadingHours1766110000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE scanner_reading_hours (
        table_id text NOT NULL,
        hour timestamptz NOT NULL,
        cards integer NOT NULL,
        unrecognised integer NOT NULL,
        PRIMARY KEY (table_id, hour)
      )`);
    await queryRunner.query(COUNT_SCANNER_READING_HOURS);
    await applyFunctionFile(queryRunner, functionFile('studio_count_scanner_readings'));
    await queryRunner.query(`
      CREATE TRIGGER scanner_readings_count_hours AFTER INSERT ON scanner_readings
        REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION studio_count_scanner_readings()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER scanner_readings_count_hours ON scanner_readings`);
    await queryRunner.query(`DROP FUNCTION studio_count_scanner_readings()`);
    await queryRunner.query(`DROP TABLE scanner_reading_hours`);
  }
}
