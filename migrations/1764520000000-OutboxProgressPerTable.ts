import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relay records how far each table is published (one row per table) instead of marking every
 * outbox row: a table's seq is handed out under a lock on its row, so per table seq order is commit
 * order and "published up to seq N" says it all. `outbox.published_at` keeps the marks made before
 * this migration and is no longer written; `outbox_pending` is what is still to be published.
 */
export class OutboxProgressPerTable1764520000000 implements MigrationInterface {
  name = 'OutboxProgressPerTable1764520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox_progress (
        table_id text PRIMARY KEY REFERENCES studio_tables(id),
        last_published_seq bigint NOT NULL CHECK (last_published_seq >= 0),
        published_at timestamptz NOT NULL
      )`);
    // Up to the first unpublished row of each table: a row marked after an unmarked one (there
    // should be none) is published again rather than skipped.
    await queryRunner.query(`
      INSERT INTO outbox_progress (table_id, last_published_seq, published_at)
      SELECT table_id, progress, published_at
        FROM (SELECT table_id,
                     COALESCE(min(seq) FILTER (WHERE published_at IS NULL) - 1, max(seq)) AS progress,
                     max(published_at) AS published_at
                FROM outbox GROUP BY table_id) AS t
       WHERE progress > 0 AND published_at IS NOT NULL`);
    // Every new row keeps published_at NULL now: the partial index would cover the whole table.
    await queryRunner.query(`DROP INDEX outbox_unpublished_idx`);
    await queryRunner.query(
      `COMMENT ON COLUMN outbox.published_at IS 'Marks made before outbox_progress; no longer written'`,
    );
    // Driven by the (few) tables so each one's pending rows come from the (table_id, seq) index
    // whatever the history's size; OFFSET 0 keeps the planner from turning it into a hash join
    // over the whole outbox.
    await queryRunner.query(`
      CREATE VIEW outbox_pending AS
      SELECT o.*
        FROM studio_tables t
        LEFT JOIN outbox_progress p ON p.table_id = t.id
       CROSS JOIN LATERAL (
             SELECT * FROM outbox o WHERE o.table_id = t.id AND o.seq > COALESCE(p.last_published_seq, 0)
             OFFSET 0) o`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW outbox_pending`);
    await queryRunner.query(`
      UPDATE outbox o SET published_at = p.published_at
        FROM outbox_progress p
       WHERE o.table_id = p.table_id AND o.seq <= p.last_published_seq AND o.published_at IS NULL`);
    await queryRunner.query(`COMMENT ON COLUMN outbox.published_at IS NULL`);
    await queryRunner.query(
      `CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL`,
    );
    await queryRunner.query(`DROP TABLE outbox_progress`);
  }
}
