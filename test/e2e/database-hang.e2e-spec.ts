import { Client } from 'pg';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { TEST_ADMIN_DATABASE_URL } from '../support/environment';
import { shoeDealtByTheTest, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(180_000);

const PLATFORM_KEY = 'hang-platform-key';
const TABLE = 'hang-pokdeng';
/** A bound no answer may exceed (not a speed target: a hung request would wait for ever). */
const NO_HANG_MS = 15_000;

/**
 * A sick PostgreSQL, not a lost one: first another client holds a lock every write needs, then the
 * server hangs (a TCP proxy that accepts and never forwards). Readiness must answer 503 at once
 * (its own short timeout), a bet must get 503 `database-unavailable` in a bounded time (statement,
 * lock and client read timeouts), nothing of a refused bet may be stored, and the service must
 * play on by itself once the database is well again.
 */
describe('a hanging database and a held lock: bounded waits', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let studio: RunningStudio;
  let token: string;
  let admin: Client;
  let bets = 0;

  beforeAll(async () => {
    db = await createTestDatabase('dbhang');
    const target = new URL(TEST_ADMIN_DATABASE_URL);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const port = await proxy.start();
    const viaProxy = new URL(db.url);
    viaProxy.host = `127.0.0.1:${port}`;
    studio = await startTestStudio({
      databaseUrl: viaProxy.toString(),
      tables: [
        {
          id: TABLE,
          name: 'Hang Pok Deng',
          game: 'pok-deng',
          currency: 'THB',
          // Betting stays open through the test: every bet meets an open window.
          bettingWindowMs: 600_000,
          roundIntervalMs: 100,
          scanner: { wireFormat: 'studio-framed-v1', virtualShoe: shoeDealtByTheTest(5) },
        } as unknown as TableDefinition,
      ],
      env: {
        DEMO_USERS: 'true',
        PLATFORM_API_KEYS: PLATFORM_KEY,
        VIRTUAL_DEALER_PACE_MS: '20',
        TABLE_LEASE_TTL_MS: '30000',
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
        DATABASE_LOCK_TIMEOUT_MS: '500',
        DATABASE_CONNECT_TIMEOUT_MS: '1500',
      },
    });
    token = await signIn(studio.url, 'supervisor', 'supervisor-demo');
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end().catch(() => undefined);
    proxy?.restore();
    await studio?.close().catch(() => undefined);
    await proxy?.stop();
    await db?.drop();
  });

  /** Status and time of an answer; a request that does not answer within NO_HANG_MS fails. */
  async function timed(path: string, init: RequestInit = {}) {
    const started = Date.now();
    const response = await fetch(`${studio.url}${path}`, {
      ...init,
      signal: AbortSignal.timeout(NO_HANG_MS),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, body, ms: Date.now() - started };
  }

  const ready = () => timed('/health/ready');
  const bet = () => {
    bets += 1;
    const commandId = `hang-c-${bets}`;
    return timed(`/platform/tables/${TABLE}/bets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-platform-key': PLATFORM_KEY },
      body: JSON.stringify({
        commandId,
        playerId: `p-${bets}`,
        betType: 'player',
        spot: '1',
        amount: 1_000 + bets,
      }),
    }).then((answer) => ({ ...answer, commandId }));
  };
  const storedBets = async (commandId: string) =>
    Number(
      (await admin.query(`SELECT count(*)::int AS n FROM bets WHERE command_id = $1`, [commandId]))
        .rows[0].n,
    );

  async function bettingOpen(): Promise<void> {
    await waitFor('betting open', async () => {
      const response = await fetch(`${studio.url}/tables/${TABLE}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const view = (await response.json()) as { round: { bettingOpen: boolean } | null };
      return view.round?.bettingOpen === true;
    });
  }

  it('answers 503 quickly while a lock is held and while the server hangs, and recovers', async () => {
    await bettingOpen();
    await waitFor(
      'a bet taken while the database is well',
      async () => (await bet()).status === 200,
    );
    await waitFor('ready while the database is well', async () => (await ready()).status === 200);

    // 1. Another client holds a lock every table write needs.
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE');
    const locked = await bet();
    const lockedReady = await waitFor('readiness 503 while the lock is held', async () => {
      const answer = await ready();
      return answer.status === 503 && answer;
    });
    await admin.query('ROLLBACK');
    console.log(
      `lock held: bet ${locked.status} ${String(locked.body.error)} in ${locked.ms} ms; readiness 503 in ${lockedReady.ms} ms`,
    );
    expect(locked).toMatchObject({ status: 503, body: { error: 'database-unavailable' } });
    expect(lockedReady.status).toBe(503);
    expect(await storedBets(locked.commandId)).toBe(0);
    await waitFor(
      'readiness 200 once the lock is gone',
      async () => (await ready()).status === 200,
    );

    // 2. The server hangs: connections stay open, nothing answers.
    proxy.hang();
    const hungReady = await ready();
    const hung = await bet();
    const hungReadyAgain = await ready();
    console.log(
      `database hanging: readiness ${hungReady.status} in ${hungReady.ms} ms, ${hungReadyAgain.status} in ${hungReadyAgain.ms} ms; bet ${hung.status} ${String(hung.body.error)} in ${hung.ms} ms`,
    );
    expect(hungReady.status).toBe(503);
    expect(hungReadyAgain.status).toBe(503);
    expect(hung).toMatchObject({ status: 503, body: { error: 'database-unavailable' } });

    // 3. Well again: ready by itself, the refused bet left nothing, a new bet is taken.
    proxy.restore();
    await waitFor(
      'readiness 200 after the hang',
      async () => (await ready()).status === 200,
      60_000,
      250,
    );
    expect(await storedBets(hung.commandId)).toBe(0);
    await bettingOpen();
    await waitFor('a bet taken after the hang', async () => (await bet()).status === 200, 30_000);
  });
});
