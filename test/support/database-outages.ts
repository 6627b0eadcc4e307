import {
  expectCompletedRoundsReplay,
  expectEachBetSettledOnce,
  expectUnbrokenChain,
} from './history-checks';
import { Pool } from 'pg';
import { TEST_ADMIN_DATABASE_URL } from './environment';
import { watchConsoleWaits } from './console-waits';
import { spawnService } from './service-process';
import { signIn, waitFor, writeTablesFile } from './studio-harness';
import { TcpProxy } from './tcp-proxy';
import { createTestDatabase, TestDatabase } from './test-database';

const PLATFORM_KEY = 'outage-platform-key';
const TABLES = ['outage-pokdeng', 'outage-ibj'];

// Heartbeats every second, as a real shoe sends them within its reader's 5 s timeout: readiness
// after an outage then says whether the database is back, not whether a table happened to deal
// (with a 60 s heartbeat a table between cards kept its reader "stale", and readiness 503, for up
// to a minute after the database was back).
const virtualScanner = (seed: number) => ({
  wireFormat: 'studio-framed-v1',
  virtualShoe: { seed, intervalMs: 3_600_000, misreadRate: 0.05, heartbeatIntervalMs: 1_000 },
});

/** One run of outages: how many, how long each may last (drawn from the seed), and the seed. */
export interface OutageRun {
  outages: number;
  minMs: number;
  maxMs: number;
  seed: number;
}

/**
 * The service and its tables run on a PostgreSQL that goes away again and again (a TCP proxy in
 * front of the shared server drops every connection and refuses new ones for a while, at random
 * moments). The process must live through every outage, report it (readiness 503), recover by
 * itself (readiness 200) and play on, leaving no half-written round and an intact chain.
 *
 * Two test files run it side by side, short outages in one and long ones in the other, so the ten
 * outages of 5–30 s take the time of the longer half.
 */
export function describeDatabaseOutages(run: OutageRun): void {
  const OUTAGES = Number(process.env.OUTAGE_TEST_RUNS ?? run.outages);
  const seconds = (ms: number) => Math.round(ms / 1000);
  describe(`database outages (${OUTAGES} outages of ${seconds(run.minMs)}–${seconds(run.maxMs)} s)`, () => {
    let db: TestDatabase;
    // A pool, not one client: the replay verifier reads several things at once.
    let client: Pool;
    let proxy: TcpProxy;
    const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      (await client.query(sql, params)).rows as T[];

    beforeAll(async () => {
      db = await createTestDatabase('outage');
      client = db.pool();
      const admin = new URL(TEST_ADMIN_DATABASE_URL);
      proxy = new TcpProxy(admin.hostname, Number(admin.port || 5432));
    });

    afterAll(async () => {
      await proxy?.stop();
      await db?.drop();
    });

    it('stays alive, reports each outage, recovers by itself and loses nothing', async () => {
      const proxyPort = await proxy.start();
      const viaProxy = new URL(db.url);
      viaProxy.host = `127.0.0.1:${proxyPort}`;
      const tablesFile = writeTablesFile([
        {
          id: TABLES[0],
          name: 'Outage Pok Deng',
          game: 'pok-deng',
          currency: 'THB',
          bettingWindowMs: 1_000,
          roundIntervalMs: 100,
          scanner: virtualScanner(11),
        },
        {
          id: TABLES[1],
          name: 'Outage IBJ',
          game: 'infinite-blackjack',
          currency: 'EUR',
          bettingWindowMs: 1_000,
          decisionWindowMs: 1_000,
          roundIntervalMs: 100,
          scanner: virtualScanner(12),
        },
      ] as never);
      const service = spawnService({
        DATABASE_URL: viaProxy.toString(),
        PORT: '0',
        LOG_LEVEL: 'info',
        STUDIO_INSTANCE_ID: 'outage-test-instance',
        TABLE_LEASE_TTL_MS: '3000',
        DEMO_USERS: 'true',
        PLATFORM_API_KEYS: PLATFORM_KEY,
        VIRTUAL_DEALER_PACE_MS: '20',
        TABLES_FILE: tablesFile,
      });
      try {
        const url = await service.listening();
        const token = await signIn(url, 'supervisor', 'supervisor-demo');
        const ready = async () => {
          if (service.child.exitCode !== null || service.child.signalCode !== null)
            throw new Error(
              `the service exited (${service.child.exitCode ?? service.child.signalCode})`,
            );
          try {
            return (await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(10_000) }))
              .status;
          } catch {
            return 0;
          }
        };
        let bets = 0;
        /** HTTP statuses answered while the database was cut off: never a bare 500. */
        const outageStatuses = new Map<string, number>();
        let inOutage = false;
        const noted = (response: Response, what: string) => {
          const key = `${what} ${response.status}`;
          if (inOutage) outageStatuses.set(key, (outageStatuses.get(key) ?? 0) + 1);
          return response;
        };
        /** Bets in every open window and resumes what an outage paused, until the deadline. */
        const play = async (ms: number) => {
          const deadline = Date.now() + ms;
          while (Date.now() < deadline) {
            try {
              const tables = (await noted(
                await fetch(`${url}/tables`, {
                  headers: { authorization: `Bearer ${token}` },
                  signal: AbortSignal.timeout(3_000),
                }),
                'tables',
              ).json()) as Array<{
                tableId: string;
                game: string;
                round: { bettingOpen: boolean } | null;
                paused: unknown;
              }>;
              for (const t of tables) {
                if (t.paused) {
                  noted(
                    await fetch(`${url}/tables/${t.tableId}/resume`, {
                      method: 'POST',
                      headers: { authorization: `Bearer ${token}` },
                    }),
                    'resume',
                  );
                } else if (t.round?.bettingOpen) {
                  bets += 1;
                  const bet =
                    t.game === 'pok-deng'
                      ? { betType: 'player', spot: String((bets % 5) + 1), amount: 1_000 + bets }
                      : { betType: 'main', amount: 100 + bets };
                  noted(
                    await fetch(`${url}/platform/tables/${t.tableId}/bets`, {
                      method: 'POST',
                      headers: {
                        'content-type': 'application/json',
                        'x-platform-key': PLATFORM_KEY,
                      },
                      body: JSON.stringify({
                        ...bet,
                        playerId: `p-${bets}`,
                        commandId: `c-${bets}`,
                      }),
                    }),
                    'bet',
                  );
                }
              }
            } catch {
              // during an outage the API may answer errors: keep playing until the deadline
            }
            await new Promise((r) => setTimeout(r, 100));
          }
        };
        const completedRounds = async () =>
          new Map(
            (
              await q<{ table_id: string; n: number }>(
                `SELECT table_id, count(*)::int AS n FROM rounds WHERE status = 'completed' GROUP BY table_id`,
              )
            ).map((r) => [r.table_id, r.n]),
          );

        let seed = Number(process.env.OUTAGE_TEST_SEED ?? run.seed);
        const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
        const seen: string[] = [];
        const consoleWaits = watchConsoleWaits(url, token);
        await play(3_000);
        for (let outage = 1; outage <= OUTAGES; outage += 1) {
          const before = await completedRounds();
          const lengthMs = run.minMs + Math.floor(random() * (run.maxMs - run.minMs));
          proxy.cut();
          const cutAt = Date.now();
          await waitFor(
            `readiness 503 during outage ${outage}`,
            async () => (await ready()) === 503,
            15_000,
            250,
          );
          inOutage = true;
          await play(Math.max(0, lengthMs - (Date.now() - cutAt)));
          inOutage = false;
          expect(service.child.exitCode).toBeNull();
          proxy.restore();
          const restoredAt = Date.now();
          await waitFor(
            `readiness 200 after outage ${outage}`,
            async () => (await ready()) === 200,
            60_000,
            250,
          );
          const recoveredMs = Date.now() - restoredAt;
          // Every table plays on: each completes at least one more round after the outage.
          await waitFor(
            `a round completed at each table after outage ${outage}`,
            async () => {
              await play(500);
              const now = await completedRounds();
              return TABLES.every((t) => (now.get(t) ?? 0) > (before.get(t) ?? 0));
            },
            90_000,
            0,
          );
          seen.push(`${Math.round(lengthMs / 1000)}s→ready in ${recoveredMs} ms`);
        }
        expect(service.child.exitCode).toBeNull();
        // The API said what was wrong while the database was out: answers or 503, never a bare 500.
        expect([...outageStatuses.keys()].filter((k) => k.endsWith(' 500'))).toEqual([]);
        expect(outageStatuses.size).toBeGreaterThan(0);
        // The tables this instance drives stay on the consoles: a signed-in dealer's list is served
        // from the running tables, not refused with the database.
        expect(outageStatuses.get('tables 200') ?? 0).toBeGreaterThan(0);
        expect(outageStatuses.get('tables 503') ?? 0).toBe(0);
        // The consoles showed the cards read during an outage waiting to be stored (the dealer is
        // told to stop dealing), and that none waits once the database is back.
        consoleWaits.stop();
        expect(Math.max(...TABLES.map((t) => consoleWaits.most.get(t) ?? 0))).toBeGreaterThan(0);
        for (const t of TABLES) expect(consoleWaits.last.get(t)).toBeNull();
        service.child.kill('SIGTERM');
        expect(await service.exited()).toEqual({ code: 0, signal: null });

        // No half-written round: every completed round replays exactly from what was stored.
        const rounds = await q<{ id: string; status: string }>(`SELECT id, status FROM rounds`);
        const completed = rounds.filter((r) => r.status === 'completed');
        await expectCompletedRoundsReplay(
          q,
          completed.map((r) => r.id),
        );
        await expectEachBetSettledOnce(q);
        for (const tableId of TABLES) await expectUnbrokenChain(q, tableId);
        console.log(
          `database outages: ${OUTAGES} outages (${seen.join(', ')}); process alive after each; ` +
            `${completed.length} rounds completed and replayed; ${bets} bets sent; HTTP statuses during the outages ${[...outageStatuses].map(([s, n]) => `${s}×${n}`).join(', ')}`,
        );
      } catch (error) {
        console.log(`service output (last 4 kB):\n${service.stdout().slice(-4_000)}`);
        throw error;
      } finally {
        if (service.child.exitCode === null) service.killGroup('SIGKILL');
        proxy.restore();
      }
    });
  });
}
