import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { VerifyRoundReplay } from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import { runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { postJson, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const DEFAULT_KEY = 'players-default-key';

const TABLES = [
  {
    id: 'ibj-players',
    name: 'Infinite Blackjack players',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 6_000,
    decisionWindowMs: 4_000,
    roundIntervalMs: 300,
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: { seed: 41, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
    },
  } as unknown as TableDefinition,
];

/**
 * Players are (platform, playerId): the same playerId sent by two platforms is two players in one
 * Infinite Blackjack round (a bet each, decisions each, settlements each), every row names its
 * platform, and the events name the platform beside the bare playerId (never the core's key).
 */
describe('players of several platforms at one table', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let casinoKey: string;
  let supervisorToken: string;
  let otherKey: string;
  let roundId: string;

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);
  const post = (path: string, body: unknown, key: string) =>
    postJson(studio.url, `/platform/tables/ibj-players/${path}`, body, { 'x-platform-key': key });

  async function tableView() {
    const response = await fetch(`${studio.url}/tables/ibj-players`, {
      headers: { authorization: `Bearer ${supervisorToken}` },
    });
    return (await response.json()) as {
      round: { id: string; phase: string; bettingOpen: boolean } | null;
    };
  }

  beforeAll(async () => {
    db = await createTestDatabase('platform-players');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: DEFAULT_KEY, VIRTUAL_DEALER_PACE_MS: '40' },
    });
    const deps = {
      repository: new PlatformsRepository(studio.database.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    };
    await runPlatformAdmin(['add', 'casino-a', 'EUR', 'Casino A'], deps);
    casinoKey = (await runPlatformAdmin(['key:create', 'casino-a'], deps)).split('\n')[1];
    await runPlatformAdmin(['add', 'casino-b', 'EUR', 'Casino B'], deps);
    otherKey = (await runPlatformAdmin(['key:create', 'casino-b'], deps)).split('\n')[1];
    supervisorToken = await signIn(studio.url, 'supervisor', 'supervisor-demo');
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  it('seats the same playerId of two platforms as two players in one round', async () => {
    const round = await waitFor(
      'betting to open',
      async () => {
        const view = await tableView();
        return view.round?.bettingOpen ? view.round : undefined;
      },
      120_000,
    );
    roundId = round.id;
    const main = (commandId: string, amount: number) => ({
      commandId,
      playerId: 'alice',
      betType: 'main',
      amount,
    });
    expect(await post('bets', main('d-1', 1_000), DEFAULT_KEY)).toMatchObject({
      status: 200,
      body: { accepted: true, reply: { deducted: 1_000 } },
    });
    expect(await post('bets', main('a-1', 2_000), casinoKey)).toMatchObject({
      status: 200,
      body: { accepted: true, reply: { deducted: 2_000 } },
    });
    // Each platform's alice has her one bet of the round; neither took the other's.
    const again = await post('bets', main('a-2', 3_000), casinoKey);
    expect(again.status).toBe(409);
    // casino-a's alice hits once and stands; the default alice is auto-played (she sends nothing).
    let hits = 0;
    await waitFor(
      'the round to complete',
      async () => {
        const [status] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [
          round.id,
        ]);
        if (status?.status === 'completed') return true;
        if ((await tableView()).round?.phase === 'deciding') {
          const action = hits === 0 ? 'hit' : 'stand';
          const r = await post('decisions', { playerId: 'alice', action }, casinoKey);
          if (r.body.accepted === true && action === 'hit') hits += 1;
        }
        return undefined;
      },
      120_000,
      200,
    );
    const bets = await q<{ platform_id: string; player_id: string; amount: string }>(
      `SELECT platform_id, player_id, amount FROM bets WHERE round_id = $1 ORDER BY amount`,
      [round.id],
    );
    expect(bets).toEqual([
      { platform_id: 'default', player_id: 'alice', amount: '1000' },
      { platform_id: 'casino-a', player_id: 'casino-a:alice', amount: '2000' },
    ]);
    const decisions = await q<{ platform_id: string; action: string; automatic: boolean }>(
      `SELECT platform_id, action, automatic FROM decisions WHERE round_id = $1 ORDER BY id`,
      [round.id],
    );
    expect(decisions.filter((d) => d.platform_id === 'casino-a' && !d.automatic)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'hit' })]),
    );
    expect(decisions.filter((d) => d.platform_id === 'default' && !d.automatic)).toEqual([]);
    const settled = await q<{ platform_id: string; stake: string }>(
      `SELECT platform_id, stake FROM settlements WHERE round_id = $1 AND bet_type = 'main'
        ORDER BY stake`,
      [round.id],
    );
    expect(settled).toEqual([
      { platform_id: 'default', stake: '1000' },
      { platform_id: 'casino-a', stake: '2000' },
    ]);
    // Replaying the stored cards, bets and decisions gives the stored settlements.
    expect(await new VerifyRoundReplay(q).round(round.id)).toMatchObject({ verdict: 'match' });
    // The events name each player by platform and bare playerId; the core's key stays inside.
    const events = await q<{ type: string; payload: Record<string, unknown> }>(
      `SELECT type, payload FROM round_events WHERE round_id = $1 ORDER BY event_no`,
      [round.id],
    );
    // (An Infinite Blackjack bet id is built from the key: an opaque id, seen by its platform only.)
    expect(JSON.stringify(events)).not.toMatch(/"playerId":"[^"]*:/);
    const accepted = events
      .filter((e) => e.type === 'BetsAccepted')
      .flatMap((e) => e.payload.bets as Record<string, unknown>[]);
    expect(accepted).toEqual([
      { playerId: 'alice', main: 1_000, side: {} },
      { playerId: 'alice', platformId: 'casino-a', main: 2_000, side: {} },
    ]);
    const settlements = events
      .filter((e) => e.type === 'BetsSettled')
      .flatMap((e) => e.payload.settlements as { platformId?: string; playerId: string }[]);
    expect(settlements.map((s) => [s.platformId ?? 'default', s.playerId]).sort()).toEqual(
      expect.arrayContaining([
        ['casino-a', 'alice'],
        ['default', 'alice'],
      ]),
    );
    // Each settlement batch holds one platform's players, numbered among that platform's own.
    const batches = events
      .filter((e) => e.type === 'BetsSettled')
      .map((e) => {
        const own = e.payload.settlements as { platformId?: string }[];
        const platforms = [...new Set(own.map((s) => s.platformId ?? 'default'))].join();
        return [platforms, e.payload.batch, e.payload.batches];
      });
    expect(batches.sort()).toEqual([
      ['casino-a', 1, 1],
      ['default', 1, 1],
    ]);
  });

  const get = async (path: string, key: string) => {
    const response = await fetch(`${studio.url}${path}`, { headers: { 'x-platform-key': key } });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), text };
  };

  it('reports each platform its own settlements per day, table and currency, equal to its events', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const settled = await q<{ payload: { settlements: Record<string, unknown>[] } }>(
      `SELECT payload FROM round_events WHERE type IN ('BetsSettled', 'BetsRefunded')`,
    );
    for (const [platformId, key] of [
      ['casino-a', casinoKey],
      ['default', DEFAULT_KEY],
    ]) {
      const own = settled
        .flatMap((e) => e.payload.settlements)
        .filter((s) => (s.platformId ?? 'default') === platformId);
      const sum = (field: string) => own.reduce((t, s) => t + Number(s[field]), 0);
      const answer = await get(`/platform/reports/settlements?from=${day}`, key);
      expect(answer.status).toBe(200);
      const report = JSON.parse(answer.text) as { lines: Record<string, unknown>[] };
      expect(report.lines).toEqual([
        {
          day,
          tableId: 'ibj-players',
          currency: 'EUR',
          rounds: 1,
          bets: own.length,
          stake: sum('stake'),
          payout: sum('returned'),
          refunds: 0,
          cancellations: 0,
          cancelledStake: 0,
          net: sum('net'),
        },
      ]);
      // Today is not over (the studio's clock): the figures may still change.
      expect(answer.type).toMatch(/^application\/json/);
      expect(report).toMatchObject({ final: false, openRounds: 0, openRoundsByTable: [] });
    }
    const csv = await get(
      `/platform/reports/settlements?from=${day}&to=${day}&format=csv`,
      casinoKey,
    );
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe(
      'day,tableId,currency,rounds,bets,stake,payout,refunds,cancellations,net,' +
        'cancelledStake,final,openRounds',
    );
    expect(csv.text.split('\r\n')[1]).toMatch(new RegExp(`^${day},ibj-players,EUR,1,1,2000,`));
    expect(csv.text.split('\r\n')[1]).toMatch(/,0,false,0$/);
    // A day that is over, without a round of its own still open, is final.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const past = await get(`/platform/reports/settlements?from=${yesterday}`, casinoKey);
    expect(JSON.parse(past.text)).toMatchObject({ final: true, openRounds: 0, lines: [] });
    // Another platform's report, a platform with no settlements, a bad day.
    const asOther = await get(
      `/platform/reports/settlements?from=${day}&platformId=casino-a`,
      otherKey,
    );
    expect(asOther).toMatchObject({ status: 404 });
    expect(JSON.parse(asOther.text)).toEqual({
      error: 'unknown-platform',
      message: 'No such platform',
    });
    const empty = await get(`/platform/reports/settlements?from=${day}`, otherKey);
    expect(JSON.parse(empty.text).lines).toEqual([]);
    expect((await get(`/platform/reports/settlements?from=2026-02-30`, otherKey)).status).toBe(400);
  });

  it("looks a round up for a platform's dispute: cards, results and that platform's own players only", async () => {
    const answer = await get(`/platform/rounds/${roundId}`, casinoKey);
    expect(answer.status).toBe(200);
    const round = JSON.parse(answer.text) as Record<string, Record<string, unknown>[]>;
    expect(round).toMatchObject({ roundId, tableId: 'ibj-players', status: 'completed' });
    expect(round.bets).toEqual([expect.objectContaining({ playerId: 'alice', amount: 2_000 })]);
    expect(round.settlements).toEqual([
      expect.objectContaining({ playerId: 'alice', stake: 2_000, betType: 'main' }),
    ]);
    expect(round.decisions.some((d) => d.action === 'hit' && d.automatic === false)).toBe(true);
    expect(round.cards.length).toBeGreaterThanOrEqual(4);
    expect(round.cards.every((c) => typeof c.card === 'string')).toBe(true);
    expect(round.hands.some((h) => h.hand === 'dealer')).toBe(true);
    // The common hand the players played (a node of every player who took that path), with
    // alice's hit: shared like the dealer's, naming no player. It used to be left out.
    const common = round.hands.filter((h) => String(h.hand).startsWith('node-'));
    expect(common.length).toBeGreaterThanOrEqual(1);
    expect(common.every((h) => /^\d+ players?: /.test(String(h.owner)))).toBe(true);
    // The default platform sees its own alice only; a platform without a bet there sees nothing.
    const asDefault = JSON.parse((await get(`/platform/rounds/${roundId}`, DEFAULT_KEY)).text);
    expect(asDefault.bets).toEqual([expect.objectContaining({ playerId: 'alice', amount: 1_000 })]);
    expect(asDefault.hands).toEqual(round.hands);
    expect(await get(`/platform/rounds/${roundId}`, otherKey)).toMatchObject({ status: 404 });
    expect(await get(`/platform/rounds/not-a-round`, otherKey)).toMatchObject({ status: 404 });
  });

  it("keeps each platform's command ids its own: the same id at three platforms is three commands", async () => {
    const round = await waitFor(
      'the next round to open betting',
      async () => {
        const view = await tableView();
        return view.round?.bettingOpen && view.round.id !== roundId ? view.round : undefined;
      },
      120_000,
    );
    const bet = (amount: number) => ({
      commandId: 'shared-1',
      playerId: 'carol',
      betType: 'main',
      amount,
    });
    const platforms = [
      ['default', DEFAULT_KEY, 1_100],
      ['casino-a', casinoKey, 1_200],
      ['casino-b', otherKey, 1_300],
    ] as const;
    const betIds: string[] = [];
    for (const [, key, amount] of platforms) {
      const first = await post('bets', bet(amount), key);
      expect(first).toMatchObject({ status: 200, body: { accepted: true } });
      betIds.push((first.body.reply as { betId: string }).betId);
    }
    expect(new Set(betIds).size).toBe(3);
    // A repeat finds its own platform's first answer, never another's.
    for (const [k, [, key, amount]] of platforms.entries()) {
      const repeat = await post('bets', bet(amount), key);
      expect(repeat).toMatchObject({ status: 200, body: { accepted: true, duplicate: true } });
      expect((repeat.body.reply as { betId: string }).betId).toBe(betIds[k]);
    }
    // The same id on another amount is still a reuse within one platform.
    expect(await post('bets', bet(1_900), casinoKey)).toMatchObject({
      status: 409,
      body: { error: 'command-id-reused' },
    });
    // casino-b cancels its bet by the PlaceBet's command id: its own, not casino-a's.
    const cancelled = await post(
      'bet-commands/shared-1/cancel',
      { commandId: 'cancel-1', playerId: 'carol' },
      otherKey,
    );
    expect(cancelled).toMatchObject({ status: 200, body: { accepted: true } });
    const rows = await q<{ platform_id: string; command_id: string; status: string }>(
      `SELECT platform_id, command_id, status FROM bets
        WHERE round_id = $1 AND command_id IS NOT NULL ORDER BY amount`,
      [round.id],
    );
    expect(rows).toEqual([
      { platform_id: 'default', command_id: 'shared-1', status: 'accepted' },
      { platform_id: 'casino-a', command_id: 'casino-a:shared-1', status: 'accepted' },
      { platform_id: 'casino-b', command_id: 'casino-b:shared-1', status: 'cancelled' },
    ]);
    // The platform hears of its cancellation by its own id; the key stays inside.
    const [event] = await q<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM round_events WHERE round_id = $1 AND type = 'BetCancelled'`,
      [round.id],
    );
    expect(event.payload).toMatchObject({ betCommandId: 'shared-1', platformId: 'casino-b' });

    // casino-b's report: the cancelled bet's stake beside the count, outside stake and net; its
    // only bet of the open round is cancelled, so nothing of its own is still to settle there.
    const day = new Date().toISOString().slice(0, 10);
    const report = async (key: string) =>
      JSON.parse((await get(`/platform/reports/settlements?from=${day}`, key)).text) as {
        final: boolean;
        openRounds: number;
        openRoundsByTable: unknown[];
        lines: Record<string, unknown>[];
      };
    const ofB = await report(otherKey);
    expect(ofB).toMatchObject({ final: false, openRounds: 0, openRoundsByTable: [] });
    expect(ofB.lines).toEqual([
      {
        day,
        tableId: 'ibj-players',
        currency: 'EUR',
        rounds: 0,
        bets: 0,
        stake: 0,
        payout: 0,
        refunds: 0,
        cancellations: 1,
        cancelledStake: 1_300,
        net: 0,
      },
    ]);
    const csv = await get(`/platform/reports/settlements?from=${day}&format=csv`, otherKey);
    expect(csv.text.split('\r\n')[1]).toBe(`${day},ibj-players,EUR,0,0,0,0,0,1,0,1300,false,0`);
    // casino-a's bet of this round is still to settle: the round is open, per table and overall.
    expect(await report(casinoKey)).toMatchObject({
      final: false,
      openRounds: 1,
      openRoundsByTable: [{ tableId: 'ibj-players', rounds: 1 }],
    });
    const lookup = await fetch(`${studio.url}/platform/reports/settlements?from=${day}`, {
      headers: { 'x-platform-key': casinoKey },
    });
    expect(lookup.headers.get('report-final')).toBe('false');
    expect(lookup.headers.get('report-open-rounds')).toBe('1');
    await lookup.arrayBuffer();
    // Settled, the round is open no more.
    await waitFor(
      'the round to complete',
      async () => {
        const [r] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [
          round.id,
        ]);
        return r?.status === 'completed' ? true : undefined;
      },
      120_000,
    );
    expect(await report(casinoKey)).toMatchObject({ openRounds: 0, openRoundsByTable: [] });
  });
});
