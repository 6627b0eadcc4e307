import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { OutboxPruneStore, PRUNE_LOCK_KEY } from '../../src/outbox/outbox-prune.store';
import { OutboxPruner } from '../../src/outbox/outbox-pruner';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const NOW = new Date('2026-12-01T12:00:00Z');
const HOUR = 3_600_000;

/**
 * Outbox pruning on the real PostgreSQL: only rows that are a copy (their table's progress is past
 * them) and older than the retention go, in batches, and a pruner whose lock another instance
 * holds leaves everything for that instance.
 */
describe('outbox pruning on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;

  /** `count` rows of a table, seq 1.., the first `old` of them 10 days old, the rest 1 hour. */
  async function rows(table: string, count: number, old: number): Promise<void> {
    await ds.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, last_event_seq, registered_at, updated_at)
       VALUES ($1, $1, 'pok-deng', 'THB', '{}', 'x', $2, now(), now())`,
      [table, count],
    );
    await ds.query(
      `INSERT INTO outbox (event_id, topic, table_id, seq, type, schema_version, occurred_at, payload)
       SELECT gen_random_uuid(), 'events', $1, s, 'CardDealt', 1,
              CASE WHEN s <= $3 THEN $4::timestamptz - interval '10 days' ELSE $4::timestamptz - interval '1 hour' END, '{}'
         FROM generate_series(1, $2) s`,
      [table, count, old, NOW],
    );
  }

  const published = (table: string, seq: number) =>
    ds.query(
      `INSERT INTO outbox_progress (table_id, last_published_seq, published_at) VALUES ($1, $2, now())`,
      [table, seq],
    );

  const seqsOf = async (table: string) =>
    (
      (await ds.query(`SELECT seq::int AS seq FROM outbox WHERE table_id = $1 ORDER BY seq`, [
        table,
      ])) as Array<{ seq: number }>
    ).map((r) => r.seq);

  const pruner = (batchSize: number) =>
    new OutboxPruner(
      new OutboxPruneStore(ds),
      { afterMs: 7 * 24 * HOUR, intervalMs: 60_000, batchSize },
      { now: () => NOW },
    );

  beforeAll(async () => {
    db = await createTestDatabase('outbox_pruning');
    ds = await db.migrated();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('deletes published rows older than the retention in batches, and nothing else', async () => {
    // t-a: 25 rows, 20 of them old, published up to 23: rows 1..20 go, 21..25 stay (new or unpublished).
    await rows('t-a', 25, 20);
    await published('t-a', 23);
    // t-b: 10 old rows published up to 4 only: 1..4 go, 5..10 wait for the relay.
    await rows('t-b', 10, 10);
    await published('t-b', 4);
    // t-c: old rows never published: all stay.
    await rows('t-c', 5, 5);

    const result = await pruner(3).pruneOnce();

    expect(result).toEqual({ deleted: 24, skipped: false });
    expect(await seqsOf('t-a')).toEqual([21, 22, 23, 24, 25]);
    expect(await seqsOf('t-b')).toEqual([5, 6, 7, 8, 9, 10]);
    expect(await seqsOf('t-c')).toEqual([1, 2, 3, 4, 5]);
    // A second pass finds nothing more.
    expect(await pruner(3).pruneOnce()).toEqual({ deleted: 0, skipped: false });
  });

  it('leaves the work to the instance that holds the pruners lock', async () => {
    await ds.query(`UPDATE outbox_progress SET last_published_seq = 10 WHERE table_id = 't-b'`);
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK_KEY]);
      expect(await pruner(100).pruneOnce()).toEqual({ deleted: 0, skipped: true });
      expect(await seqsOf('t-b')).toEqual([5, 6, 7, 8, 9, 10]);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect(await pruner(100).pruneOnce()).toEqual({ deleted: 6, skipped: false });
    expect(await seqsOf('t-b')).toEqual([]);
  });
});
