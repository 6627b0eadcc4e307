import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { postJson, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const virtualShoe = (seed: number) => ({
  wireFormat: 'studio-framed-v1',
  virtualShoe: { seed, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
});

/** Betting stays open for the whole test (nothing closes it). */
const TABLES = [
  {
    id: 'ibj-cancel-id',
    name: 'Infinite Blackjack',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 200_000,
    scanner: virtualShoe(61),
  },
  {
    id: 'lux-cancel-id',
    name: 'Blackjack Lux',
    game: 'blackjack-lux',
    currency: 'EUR',
    bettingWindowMs: 200_000,
    scanner: virtualShoe(62),
  },
  {
    id: 'pd-cancel-id',
    name: 'Pok Deng',
    game: 'pok-deng',
    currency: 'EUR',
    bettingWindowMs: 200_000,
    scanner: virtualShoe(63),
  },
] as unknown as TableDefinition[];

/**
 * A platform takes a bet back by the betId its answer named (docs/wallet-model.md, rule 4),
 * whatever the bet: placed without a commandId (optional over HTTP), or built from a playerId of
 * 200 characters (a betId longer than 200), at every game.
 */
describe('cancelling a bet by the betId of its answer', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let key: string;
  let supervisorToken: string;

  const post = (path: string, body: unknown) =>
    postJson(studio.url, `/platform/tables/${path}`, body, { 'x-platform-key': key });

  async function bettingOpen(tableId: string): Promise<void> {
    await waitFor(
      `betting to open at ${tableId}`,
      async () => {
        const response = await fetch(`${studio.url}/tables/${tableId}`, {
          headers: { authorization: `Bearer ${supervisorToken}` },
        });
        const view = (await response.json()) as { round: { bettingOpen: boolean } | null };
        return view.round?.bettingOpen ? true : undefined;
      },
      120_000,
    );
  }

  async function placeAndCancel(tableId: string, bet: Record<string, unknown>) {
    const placed = await post(`${tableId}/bets`, bet);
    expect(placed).toMatchObject({ status: 200, body: { accepted: true } });
    const { betId, roundId } = placed.body.reply as { betId: string; roundId: string };
    const cancelled = await post(`${tableId}/bets/${encodeURIComponent(betId)}/cancel`, {
      playerId: bet.playerId,
    });
    expect(cancelled).toEqual({
      status: 200,
      body: { accepted: true, reply: { betId, roundId, cancelled: true } },
    });
    const again = await post(`${tableId}/bets/${encodeURIComponent(betId)}/cancel`, {
      playerId: bet.playerId,
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'bet-already-cancelled' } });
    return betId;
  }

  beforeAll(async () => {
    db = await createTestDatabase('platform-cancel-id');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: { DEMO_USERS: 'true', VIRTUAL_DEALER_PACE_MS: '40' },
    });
    const deps = {
      repository: new PlatformsRepository(studio.database.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    };
    await runPlatformAdmin(['add', 'casino-a', 'EUR', 'Casino A'], deps);
    key = (await runPlatformAdmin(['key:create', 'casino-a'], deps)).split('\n')[1];
    supervisorToken = await signIn(studio.url, 'supervisor', 'supervisor-demo');
    for (const table of TABLES) await bettingOpen(table.id);
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  it.each([
    ['ibj-cancel-id', { betType: 'main', amount: 1_000, sideBets: { pairs: 500 } }],
    ['lux-cancel-id', { betType: 'main', spot: '3', amount: 1_000 }],
    ['pd-cancel-id', { betType: 'player', spot: '2', amount: 1_000 }],
  ])('at %s, a bet placed without a commandId', async (tableId, bet) => {
    await placeAndCancel(tableId, { playerId: `no-command-${tableId}`, ...bet });
  });

  it.each([
    ['ibj-cancel-id', { betType: 'main', amount: 1_000 }],
    ['lux-cancel-id', { betType: 'main', spot: '4', amount: 1_000 }],
  ])('at %s, a betId of more than 200 characters', async (tableId, bet) => {
    const playerId = `${tableId}/${'x'.repeat(200 - tableId.length - 1)}`;
    const betId = await placeAndCancel(tableId, { commandId: `long-${tableId}`, playerId, ...bet });
    expect(betId.length).toBeGreaterThan(200);
  });
});
