import { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { lastSeqs } from '../../src/outbox/outbox-relay';
import { PgOutboxRelayStore } from '../../src/outbox/outbox-relay-store';
import { createTestDatabase, TestDatabase } from '../support/test-database';

// Migrating down and up again takes longer than jest's 5 s default on a busy machine.
jest.setTimeout(60_000);

/**
 * Per-table progress on the real PostgreSQL: taken over from the rows' old marks by the migration,
 * given back to them by its down, and read past without skipping a row that commits late with an
 * id lower than rows of other tables already published.
 */
describe('outbox progress per table on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;

  /** [table, seq, id, published before the migration] */
  const ROWS: Array<[string, number, number, boolean]> = [
    ['t0', 1, 10, true],
    ['t0', 2, 20, true],
    ['t0', 3, 30, true],
    ['t1', 1, 40, true],
    ['t1', 2, 50, true],
    ['t2', 1, 60, false],
    ['t0', 4, 70, false],
    ['t0', 5, 80, false],
  ];

  const insert = (table: string, seq: number, id: number, publishedAt: Date | null) =>
    ds.query(
      `INSERT INTO outbox (id, event_id, topic, table_id, seq, type, schema_version, occurred_at, payload, published_at)
       VALUES ($1, gen_random_uuid(), 'events', $2, $3, 'CardDealt', 1, now(), '{}', $4)`,
      [id, table, seq, publishedAt],
    );
  const progress = async () =>
    Object.fromEntries(
      (
        await ds.query(
          `SELECT table_id, last_published_seq::int AS seq FROM outbox_progress ORDER BY table_id`,
        )
      ).map((r: { table_id: string; seq: number }) => [r.table_id, r.seq]),
    );
  const pendingIds = async () =>
    (await ds.query(`SELECT id::int AS id FROM outbox_pending ORDER BY id`)).map(
      (r: { id: number }) => r.id,
    );

  /** Undoes migrations until the per-table progress one is undone (later ones first). */
  const undoOutboxProgress = async () => {
    const applied = async () =>
      (
        await ds.query(`SELECT 1 FROM schema_migrations WHERE name = $1`, [
          'OutboxProgressPerTable1764520000000',
        ])
      ).length > 0;
    while (await applied()) await ds.undoLastMigration({ transaction: 'each' });
  };

  beforeAll(async () => {
    db = await createTestDatabase('relay_progress');
    ds = createStudioDataSource({ url: db.url, poolSize: 3, connectTimeoutMs: 5_000 });
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    // Back to the per-row marks, with a history marked the old way.
    await undoOutboxProgress();
    await ds.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash,
                                  last_event_seq, registered_at, updated_at)
       SELECT 't' || i, 'T', 'baccarat', 'EUR', '{}', '', 0, now(), now() FROM generate_series(0, 2) i`,
    );
    for (const [table, seq, id, published] of ROWS) {
      await insert(table, seq, id, published ? new Date('2026-05-06T07:08:09Z') : null);
    }
    await ds.runMigrations({ transaction: 'each' });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('takes each table over at its last row marked published', async () => {
    expect(await progress()).toEqual({ t0: 3, t1: 2 });
    expect(await pendingIds()).toEqual([60, 70, 80]);
  });

  it('publishes a row that commits after later ids of other tables were published', async () => {
    const store = new PgOutboxRelayStore(ds);
    const lease = (await store.tryLead())!;
    try {
      const first = await lease.read(10, new Map());
      expect(first.map((r) => r.id)).toEqual(['60', '70', '80']);
      await lease.markPublished(lastSeqs(first), new Date());
      expect(await progress()).toEqual({ t0: 5, t1: 2, t2: 1 });
      // t1's next event took its id (55) before t0's 70 and 80 and commits only now.
      await insert('t1', 3, 55, null);
      expect((await lease.read(10, new Map())).map((r) => [r.id, r.tableId, r.seq])).toEqual([
        ['55', 't1', '3'],
      ]);
      expect(await store.backlog()).toMatchObject({ pending: 1 });
    } finally {
      await lease.end();
    }
  });

  it('gives the progress back to the rows when migrated down, and takes it again when up', async () => {
    await undoOutboxProgress();
    const unmarked = await ds.query(
      `SELECT id::int AS id FROM outbox WHERE published_at IS NULL ORDER BY id`,
    );
    expect(unmarked.map((r: { id: number }) => r.id)).toEqual([55]);
    await ds.runMigrations({ transaction: 'each' });
    expect(await progress()).toEqual({ t0: 5, t1: 2, t2: 1 });
    expect(await pendingIds()).toEqual([55]);
  });
});
