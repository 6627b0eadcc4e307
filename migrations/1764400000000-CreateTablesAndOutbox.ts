import { MigrationInterface, QueryRunner } from 'typeorm';

/** Configured tables and the transactional outbox that feeds Kafka. */
export class CreateTablesAndOutbox1764400000000 implements MigrationInterface {
  name = 'CreateTablesAndOutbox1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE studio_tables (
        id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name text NOT NULL,
        game text NOT NULL,
        currency char(3) NOT NULL,
        configuration jsonb NOT NULL,
        configuration_hash text NOT NULL,
        last_event_seq bigint NOT NULL DEFAULT 0 CHECK (last_event_seq >= 0),
        registered_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        topic text NOT NULL,
        table_id text NOT NULL REFERENCES studio_tables(id),
        round_id text NULL,
        seq bigint NOT NULL CHECK (seq > 0),
        type text NOT NULL,
        schema_version integer NOT NULL,
        occurred_at timestamptz NOT NULL,
        payload jsonb NOT NULL,
        published_at timestamptz NULL,
        publish_attempts integer NOT NULL DEFAULT 0,
        last_error text NULL,
        UNIQUE (table_id, seq)
      )`);
    // The relay only ever scans unpublished rows; keep that scan independent of history size.
    await queryRunner.query(
      `CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE outbox`);
    await queryRunner.query(`DROP TABLE studio_tables`);
  }
}
