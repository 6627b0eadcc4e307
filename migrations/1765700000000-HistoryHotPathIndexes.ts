import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the queries the consoles run on start-up, found by the history bench
 * (bench/history.bench.ts): without them each walked a table's whole history, so their cost grew
 * with every round played. Live hold monitoring reads a table's last completed rounds by end time
 * and every table's completed rounds of the last hours; the scanner summary counts a table's
 * scanner outages of the last hours among its events. All three are partial (completed rounds,
 * one event type), so they cost little to keep up.
 */
export class HistoryHotPathIndexes1765700000000 implements MigrationInterface {
  name = 'HistoryHotPathIndexes1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS rounds_table_completed_ended_idx
         ON rounds (table_id, ended_at DESC, id DESC) WHERE status = 'completed'`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS rounds_completed_ended_idx
         ON rounds (ended_at) WHERE status = 'completed'`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS round_events_scanner_status_idx
         ON round_events (table_id, occurred_at) WHERE type = 'ScannerStatusChanged'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS round_events_scanner_status_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS rounds_completed_ended_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS rounds_table_completed_ended_idx`);
  }
}
