import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { toOutgoingMessage } from '../../src/outbox/outbox-envelope';
import { lastSeqs } from '../../src/outbox/outbox-relay';
import { PgOutboxRelayStore } from '../../src/outbox/outbox-relay-store';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** The relay's SQL and its leadership on the real PostgreSQL: two "instances" on one database. */
describe('outbox relay store on PostgreSQL', () => {
  let db: TestDatabase;
  let a: DataSource;
  let b: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('relay_lead');
    a = createStudioDataSource({
      url: db.url,
      poolSize: 3,
      connectTimeoutMs: 5_000,
      applicationName: 'relay-a',
    });
    b = createStudioDataSource({
      url: db.url,
      poolSize: 3,
      connectTimeoutMs: 5_000,
      applicationName: 'relay-b',
    });
    await a.initialize();
    await a.runMigrations({ transaction: 'each' });
    await b.initialize();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    // The relay reads the pending rows of registered tables.
    await client.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash,
                                  last_event_seq, registered_at, updated_at)
       SELECT 't' || i, 'T', 'baccarat', 'EUR', '{}', '', 10, now(), now() FROM generate_series(0, 1) i`,
    );
    await client.query(
      `INSERT INTO outbox (event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at, payload)
       SELECT gen_random_uuid(), 'events', 't' || (i % 2), CASE WHEN i % 2 = 0 THEN 'r1' END, i, 'CardDealt', 3,
              timestamptz '2026-05-06 07:08:09.012Z' + i * interval '1 ms', jsonb_build_object('i', i, 's', 'x, y: z')
         FROM generate_series(1, 10) i`,
    );
    await client.end();
  });

  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await db?.drop();
  });

  it('lets one instance lead at a time, and the other once the lease ends', async () => {
    const leaseA = await new PgOutboxRelayStore(a).tryLead();
    expect(leaseA).not.toBeNull();
    expect(await new PgOutboxRelayStore(b).tryLead()).toBeNull();
    await leaseA!.end();
    const leaseB = await new PgOutboxRelayStore(b).tryLead();
    expect(leaseB).not.toBeNull();
    await leaseB!.end();
  });

  it('reads in id order leaving out rows in flight, marks them, and formats the envelope', async () => {
    const lease = (await new PgOutboxRelayStore(a).tryLead())!;
    try {
      const first = await lease.read(3, new Map());
      expect(first.map((r) => r.id)).toEqual(['1', '2', '3']);
      const next = await lease.read(3, lastSeqs(first));
      expect(next.map((r) => r.id)).toEqual(['4', '5', '6']);
      const envelope = JSON.parse(toOutgoingMessage(first[1]).value);
      expect(envelope).toEqual({
        eventId: first[1].eventId,
        type: 'CardDealt',
        schemaVersion: 3,
        tableId: 't0',
        seq: 2,
        occurredAt: '2026-05-06T07:08:09.014Z',
        payload: { i: 2, s: 'x, y: z' },
        roundId: 'r1',
      });
      await lease.markPublished(lastSeqs(first), new Date());
      expect((await lease.read(10, new Map())).map((r) => r.id)[0]).toBe('4');
    } finally {
      await lease.end();
    }
    expect((await new PgOutboxRelayStore(b).backlog()).pending).toBe(7);
  });

  it('loses the lead with its connection: the other instance takes over, the old leader fails', async () => {
    const leaseA = (await new PgOutboxRelayStore(a).tryLead())!;
    expect(await new PgOutboxRelayStore(b).tryLead()).toBeNull();
    await b.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'relay-a'`,
    );
    let leaseB = await new PgOutboxRelayStore(b).tryLead();
    for (let i = 0; i < 50 && !leaseB; i++) {
      await new Promise((r) => setTimeout(r, 100));
      leaseB = await new PgOutboxRelayStore(b).tryLead();
    }
    expect(leaseB).not.toBeNull();
    await expect(leaseA.read(1, new Map())).rejects.toThrow();
    await leaseA.end(); // gives the broken connection back to be closed, does not throw
    await leaseB!.end();
    // The pool replaced the broken connection: instance A can lead again.
    const again = await new PgOutboxRelayStore(a).tryLead();
    expect(again).not.toBeNull();
    await again!.end();
  });
});
