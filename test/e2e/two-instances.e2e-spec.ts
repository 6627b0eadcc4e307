import { Pool } from 'pg';
import { ServiceProcess, spawnService } from '../support/service-process';
import { waitFor, writeTablesFile } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const TABLE_IDS = ['twin-pokdeng-1', 'twin-pokdeng-2', 'twin-ibj'];

/**
 * Two instances of the service on one database: every table is driven by exactly one of them, and
 * when that one dies its tables pass to the other, which rebuilds them and keeps dealing.
 */
describe('two instances against one database', () => {
  let db: TestDatabase;
  // A pool, not one client: the replay verifier reads several things at once.
  let client: Pool;
  const running: ServiceProcess[] = [];
  const q = async <T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> => (await client.query(sql, params)).rows as T[];

  beforeAll(async () => {
    db = await createTestDatabase('twins');
    client = db.pool();
  });

  afterAll(async () => {
    for (const s of running) s.killGroup('SIGKILL');
    await db.drop();
  });

  const scanner = (seed: number) => ({
    wireFormat: 'studio-framed-v1',
    virtualShoe: { seed, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
  });
  const tablesFile = writeTablesFile([
    {
      id: TABLE_IDS[0],
      name: 'Twin PD 1',
      game: 'pok-deng',
      currency: 'THB',
      bettingWindowMs: 1_000,
      roundIntervalMs: 200,
      scanner: scanner(1),
    },
    {
      id: TABLE_IDS[1],
      name: 'Twin PD 2',
      game: 'pok-deng',
      currency: 'THB',
      bettingWindowMs: 1_000,
      roundIntervalMs: 200,
      scanner: scanner(2),
    },
    {
      id: TABLE_IDS[2],
      name: 'Twin IBJ',
      game: 'infinite-blackjack',
      currency: 'EUR',
      bettingWindowMs: 1_000,
      decisionWindowMs: 1_000,
      roundIntervalMs: 200,
      scanner: scanner(3),
    },
  ] as never);

  async function start(instanceId: string) {
    const service = spawnService({
      DATABASE_URL: db.url,
      PORT: '0',
      LOG_LEVEL: 'info',
      STUDIO_INSTANCE_ID: instanceId,
      TABLE_LEASE_TTL_MS: '3000',
      DEMO_USERS: 'true',
      VIRTUAL_DEALER_PACE_MS: '20',
      TABLES_FILE: tablesFile,
    });
    running.push(service);
    const url = await service.listening();
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'supervisor', password: 'supervisor-demo' }),
    });
    const { token } = (await login.json()) as { token: string };
    const driven = async () => {
      const tables = (await (
        await fetch(`${url}/tables`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as Array<{ tableId: string; driven: boolean; paused: unknown }>;
      return tables;
    };
    return { service, url, token, driven };
  }

  it('drives each table from one instance and hands a dead instance’s tables to the other', async () => {
    const a = await start('instance-a');
    const b = await start('instance-b');
    await waitFor('every table to be driven by one instance', async () => {
      const [fromA, fromB] = await Promise.all([a.driven(), b.driven()]);
      return TABLE_IDS.every(
        (id) =>
          Number(fromA.find((t) => t.tableId === id)?.driven) +
            Number(fromB.find((t) => t.tableId === id)?.driven) ===
          1,
      );
    });
    const leases = await q<{ table_id: string; owner: string; epoch: string }>(
      `SELECT table_id, owner, epoch FROM table_leases ORDER BY table_id`,
    );
    expect(leases.map((l) => l.table_id)).toEqual([...TABLE_IDS].sort());
    const ownerOf = new Map(leases.map((l) => [l.table_id, l.owner]));
    const ofA = TABLE_IDS.filter((id) => ownerOf.get(id) === 'instance-a');
    expect(ofA.length).toBeGreaterThan(0);

    // Let A deal for a while, then kill it without warning.
    await waitFor(
      'a completed round',
      async () => {
        const [{ n }] = await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM rounds WHERE status = 'completed'`,
        );
        return n > 0;
      },
      60_000,
    );
    a.service.killGroup('SIGKILL');
    await a.service.exited();
    const killedAt = new Date();

    await waitFor(
      'instance B to drive every table',
      async () => (await b.driven()).every((t) => t.driven),
      30_000,
      200,
    );
    const after = await q<{ table_id: string; owner: string; epoch: string }>(
      `SELECT table_id, owner, epoch FROM table_leases ORDER BY table_id`,
    );
    expect(after.every((l) => l.owner === 'instance-b')).toBe(true);
    for (const id of ofA) {
      expect(Number(after.find((l) => l.table_id === id)!.epoch)).toBe(2);
    }
    // B rebuilt A's tables from the database and keeps playing them (resuming recovery pauses).
    await waitFor(
      "a round of one of A's former tables completed by B",
      async () => {
        for (const t of await b.driven()) {
          if (t.paused) {
            await fetch(`${b.url}/tables/${t.tableId}/resume`, {
              method: 'POST',
              headers: { authorization: `Bearer ${b.token}` },
            });
          }
        }
        const [{ n }] = await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM rounds WHERE table_id = ANY($1) AND status = 'completed' AND ended_at > $2`,
          [ofA, killedAt],
        );
        return n > 0;
      },
      90_000,
      300,
    );
    b.service.child.kill('SIGTERM');
    expect(await b.service.exited()).toEqual({ code: 0, signal: null });
    // A graceful stop releases the leases at once.
    const released = await q<{ live: number }>(
      `SELECT count(*)::int AS live FROM table_leases WHERE expires_at > clock_timestamp()`,
    );
    expect(released[0].live).toBe(0);
  });
});
