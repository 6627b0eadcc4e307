import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import { runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { startTestStudio } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const LIMIT = 8;
const REPORT_LIMIT = 3;

/** Each platform its own HTTP budget: one past its limit gets 429 + Retry-After, the other not. */
describe('per-platform HTTP rate limits', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase('platform-rate-limits');
    studio = await startTestStudio({
      databaseUrl: db.url,
      env: {
        PLATFORM_API_KEYS: 'rate-default-key',
        PLATFORM_HTTP_RATE_LIMIT: String(LIMIT),
        PLATFORM_HTTP_RATE_WINDOW_MS: '60000',
        PLATFORM_REPORT_RATE_LIMIT: String(REPORT_LIMIT),
        PLATFORM_REPORT_RATE_WINDOW_MS: '60000',
      },
    });
    const deps = {
      repository: new PlatformsRepository(studio.database.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    };
    for (const id of ['casino-a', 'casino-b']) {
      await runPlatformAdmin(['add', id, 'EUR'], deps);
      keys[id] = (await runPlatformAdmin(['key:create', id], deps)).split('\n')[1];
    }
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  const report = (platform: string) =>
    fetch(`${studio.url}/platform/reports/settlements?from=2026-01-01`, {
      headers: { 'x-platform-key': keys[platform] },
    });

  const lookup = (platform: string) =>
    fetch(`${studio.url}/platform/rounds/00000000-0000-4000-8000-000000000000`, {
      headers: { 'x-platform-key': keys[platform] },
    });

  it("refuses a platform's settlement reports past their own budget, not its other requests nor another's reports", async () => {
    for (let i = 0; i < REPORT_LIMIT; i += 1) expect((await report('casino-a')).status).toBe(200);
    const refused = await report('casino-a');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      error: 'rate-limited',
      message: expect.stringContaining('Too many settlement reports'),
    });
    expect((await lookup('casino-a')).status).toBe(404);
    expect((await report('casino-b')).status).toBe(200);
  });

  it("refuses a platform past its budget with 429 and Retry-After, without touching another's", async () => {
    // casino-a has made REPORT_LIMIT + 2 requests: every one counts, the refused report too.
    for (let made = REPORT_LIMIT + 2; made < LIMIT; made += 1) {
      expect((await lookup('casino-a')).status).toBe(404);
    }
    const refused = await lookup('casino-a');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({
      error: 'rate-limited',
      message: expect.stringContaining('Too many requests'),
    });
    expect((await lookup('casino-b')).status).toBe(404);
    // Bets too: the budget is the platform's, whatever the route.
    const bet = await fetch(`${studio.url}/platform/tables/ibj-1/bets`, {
      method: 'POST',
      headers: { 'x-platform-key': keys['casino-a'], 'content-type': 'application/json' },
      body: JSON.stringify({ playerId: 'p', betType: 'main', amount: 100 }),
    });
    expect(bet.status).toBe(429);
  });
});
