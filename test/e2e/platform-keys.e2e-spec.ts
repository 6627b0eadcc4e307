import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { PlatformAdminError, runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import {
  postJson,
  shoeDealtByTheTest,
  signIn,
  startTestStudio,
  waitFor,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(180_000);

const DEFAULT_KEY = 'default-platform-key';
/** Short, so a revocation or suspension is seen by the test within a second. */
/**
 * Long: a revocation or suspension holds at once (the registry's NOTIFY), not after the cache's time.
 */
const CACHE_MS = 60_000;
/** How soon a change must hold: the notice's way from the commit to the listening instance. */
const NOTICE_MS = 1_000;

const TABLES = [
  {
    id: 'pokdeng-keys',
    name: 'Pok Deng keys',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 600_000,
    roundIntervalMs: 300,
    scanner: { wireFormat: 'studio-framed-v1', virtualShoe: shoeDealtByTheTest(7) },
  } as unknown as TableDefinition,
];

/**
 * Platforms and their keys from the operator's commands to the HTTP API: keys shown once and
 * stored hashed, several active at once, revocation and suspension seen at once (the registry's
 * NOTIFY empties every instance's cache) without a restart, each refusal with its own code and nothing written.
 */
describe('platforms registry and API keys', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let admin: (...args: string[]) => Promise<string>;
  let supervisorToken: string;

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);
  const betCount = async () =>
    Number((await q<{ n: string }>(`SELECT count(*) AS n FROM bets`))[0].n);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  let n = 0;
  const bet = (key: string, playerId = 'alice') =>
    postJson(
      studio.url,
      '/platform/tables/pokdeng-keys/bets',
      { commandId: `keys-${(n += 1)}`, playerId, betType: 'player', spot: '1', amount: 1_000 },
      { 'x-platform-key': key },
    );

  beforeAll(async () => {
    db = await createTestDatabase('platform-keys');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: {
        DEMO_USERS: 'true',
        PLATFORM_API_KEYS: DEFAULT_KEY,
        PLATFORM_KEY_CACHE_MS: String(CACHE_MS),
        // The new shoe's burn cards at a test's pace, not a dealer's (6 s before betting opens).
        VIRTUAL_DEALER_PACE_MS: '20',
      },
    });
    const deps = {
      repository: new PlatformsRepository(studio.database.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    };
    admin = (...args) => runPlatformAdmin(args, deps);
    supervisorToken = await signIn(studio.url, 'supervisor', 'supervisor-demo');
    await waitFor(
      'betting to open',
      async () => {
        const response = await fetch(`${studio.url}/tables/pokdeng-keys`, {
          headers: { authorization: `Bearer ${supervisorToken}` },
        });
        const view = (await response.json()) as { round: { bettingOpen: boolean } | null };
        return view.round?.bettingOpen;
      },
      120_000,
    );
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  const keyOf = (output: string) => output.split('\n')[1];
  const keyIdOf = (output: string) => /^Key (\S+)/.exec(output)![1];

  it('keeps PLATFORM_API_KEYS working as the default platform, which plays every table currency', async () => {
    expect(await bet(DEFAULT_KEY)).toMatchObject({ status: 200, body: { accepted: true } });
    expect(await admin('list')).toMatch(/^default\tactive\tTHB\tDefault platform$/m);
  });

  it('creates random keys shown once and stored only as their SHA-256, several active at once', async () => {
    expect(await admin('add', 'casino-a', 'THB,EUR', 'Casino', 'A')).toBe(
      'Added platform casino-a (Casino A), currencies THB, EUR',
    );
    await expect(admin('add', 'casino-a', 'THB')).rejects.toThrow(PlatformAdminError);
    await expect(admin('add', 'Casino_A', 'THB')).rejects.toThrow(/platform id must match/);
    await expect(admin('add', 'casino-z', 'EUR,ZZZ')).rejects.toThrow(
      'currencies: not ISO 4217 codes: ZZZ',
    );
    const first = keyOf(await admin('key:create', 'casino-a', 'first'));
    const second = keyOf(await admin('key:create', 'casino-a', 'second'));
    expect(first).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    const stored = await q<{ key_hash: Buffer }>(
      `SELECT key_hash FROM platform_api_keys WHERE platform_id = 'casino-a'`,
    );
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(first.slice(4, 20));
    expect(await bet(first)).toMatchObject({ status: 200, body: { accepted: true } });
    expect(await bet(second)).toMatchObject({ status: 200, body: { accepted: true } });
  });

  it('refuses an unknown or missing key with 401 unknown-api-key and writes nothing', async () => {
    const before = await betCount();
    expect(await bet('psk_not-a-key')).toEqual({
      status: 401,
      body: { error: 'unknown-api-key', message: 'No platform has this key' },
    });
    const missing = await postJson(studio.url, '/platform/tables/pokdeng-keys/bets', {});
    expect(missing).toMatchObject({ status: 401, body: { error: 'unknown-api-key' } });
    expect(await betCount()).toBe(before);
  });

  it('refuses a revoked key at once (not after the cache time), without a restart, while the other key works', async () => {
    const created = await admin('key:create', 'casino-a', 'to revoke');
    const key = keyOf(created);
    expect(await bet(key)).toMatchObject({ status: 200 });
    expect(await admin('key:revoke', 'casino-a', keyIdOf(created))).toMatch(/is revoked$/);
    await sleep(NOTICE_MS);
    const before = await betCount();
    expect(await bet(key)).toMatchObject({ status: 401, body: { error: 'api-key-revoked' } });
    expect(await betCount()).toBe(before);
    const other = keyOf(await admin('key:create', 'casino-a'));
    expect(await bet(other)).toMatchObject({ status: 200 });
    await expect(admin('key:revoke', 'casino-b', keyIdOf(created))).rejects.toThrow(/no key/);
    expect(await admin('key:list', 'casino-a')).toMatch(/\trevoked \d{4}-.*\tto revoke$/m);
  });

  it('refuses a suspended platform with 403 platform-suspended and serves it again once resumed', async () => {
    const key = keyOf(await admin('key:create', 'casino-a'));
    expect(await admin('suspend', 'casino-a')).toBe('Platform casino-a is suspended');
    await sleep(NOTICE_MS);
    const before = await betCount();
    expect(await bet(key)).toMatchObject({ status: 403, body: { error: 'platform-suspended' } });
    expect(await bet(DEFAULT_KEY, 'bob')).toMatchObject({ status: 200 });
    expect(await betCount()).toBe(before + 1);
    await admin('resume', 'casino-a');
    await sleep(NOTICE_MS);
    expect(await bet(key, 'carol')).toMatchObject({ status: 200 });
    await admin('suspend', 'default');
    await sleep(NOTICE_MS);
    expect(await bet(DEFAULT_KEY, 'dave')).toMatchObject({
      status: 403,
      body: { error: 'platform-suspended' },
    });
    await admin('resume', 'default');
  });
});
