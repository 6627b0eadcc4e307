import { MigrationInterface, QueryRunner } from 'typeorm';

/** Raw card-shoe reader readings, garbage included, with their interpretation and outcome. */
export class CreateScannerReadings1764430000000 implements MigrationInterface {
  name = 'CreateScannerReadings1764430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE scanner_readings (
        id bigserial PRIMARY KEY,
        table_id text NOT NULL REFERENCES studio_tables(id),
        port text NOT NULL,
        wire_format text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('card', 'unrecognised', 'status', 'heartbeat', 'invalid')),
        raw bytea NOT NULL,
        decoded jsonb NOT NULL,
        device_seq integer NULL,
        received_at timestamptz NOT NULL,
        outcome text NOT NULL,
        outcome_detail jsonb NULL
      )`);
    // Auditors search a table's readings by time.
    await queryRunner.query(
      `CREATE INDEX scanner_readings_table_received_idx ON scanner_readings (table_id, received_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE scanner_readings`);
  }
}
