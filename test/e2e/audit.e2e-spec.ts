import { randomUUID } from 'node:crypto';
import { runAuditCli } from '../../apps/audit-cli/audit-cli';
import type { RangeVerdict, RoundVerdict } from '../../src/audit/verify-round-replay.use-case';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { postJson, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(180_000);

const PLATFORM_KEY = 'test-platform-key';

function scanner(seed: number, misreadRate: number) {
  return {
    wireFormat: 'studio-framed-v1',
    virtualShoe: { seed, intervalMs: 3_600_000, misreadRate, heartbeatIntervalMs: 60_000 },
  };
}

/** The orchestrator's games, on virtual shoes over real pseudo-terminals, as in its e2e tests. */
const TABLES: TableDefinition[] = [
  {
    id: 'pokdeng-audit',
    name: 'Pok Deng audit',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 2_500,
    roundIntervalMs: 300,
    scanner: scanner(11, 0.2),
  },
  {
    id: 'ibj-audit',
    name: 'Infinite Blackjack audit',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 2_500,
    decisionWindowMs: 1_000,
    roundIntervalMs: 300,
    scanner: scanner(22, 0.2),
  },
  {
    id: 'lux-audit',
    name: 'Blackjack Lux audit',
    game: 'blackjack-lux',
    currency: 'EUR',
    bettingWindowMs: 2_500,
    decisionWindowMs: 1_000,
    roundIntervalMs: 300,
    scanner: scanner(44, 0.1),
  },
  {
    id: 'practice-audit',
    name: 'European practice audit',
    game: 'european-blackjack-practice',
    currency: 'XPT',
    bettingWindowMs: 1_000,
    decisionWindowMs: 1_000,
    roundIntervalMs: 200,
    rules: {
      bots: [
        { seat: 1, level: 'hard' },
        { seat: 2, level: 'easy' },
      ],
    },
  },
] as unknown as TableDefinition[];

interface RoundSummary {
  id: string;
  tableId: string;
  game: string;
  shoeId: string | null;
  status: string;
  startedAt: string;
}

/**
 * The auditor API on the real service and PostgreSQL: rounds played by the orchestrator (bets over
 * the platform API, cards from virtual shoes with misreads, decisions and auto-play, bot rounds),
 * then searched, traced, exported, replayed and their event chains checked, tampered with in SQL.
 */
describe('auditor history', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let auditor: string;
  let dealer: string;
  const since = new Date(Date.now() - 1_000);
  let pokRound: RoundSummary;
  let ibjRoundId: string | undefined;
  let luxRoundId: string;
  let until: Date;

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(studio.url, path, body, headers);

  async function get<T = Record<string, unknown>>(path: string, token = auditor) {
    const response = await fetch(`${studio.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      text,
      body: (response.headers.get('content-type')?.startsWith('application/json')
        ? JSON.parse(text)
        : undefined) as T,
    };
  }

  const search = (params: Record<string, string>) =>
    get<{ items: RoundSummary[]; nextCursor: string | null }>(
      `/audit/rounds?${new URLSearchParams(params)}`,
    );

  async function tableRound(tableId: string) {
    return waitFor(
      `${tableId} to open betting`,
      async () => {
        const response = await fetch(`${studio.url}/tables/${tableId}`, {
          headers: { authorization: `Bearer ${dealer}` },
        });
        const view = (await response.json()) as {
          round: { id: string; phase: string; bettingOpen: boolean } | null;
        };
        return view.round?.bettingOpen ? view.round : undefined;
      },
      60_000,
    );
  }

  async function roundStatus(roundId: string) {
    const [row] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [roundId]);
    return row?.status;
  }

  beforeAll(async () => {
    db = await createTestDatabase('audit');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: {
        DEMO_USERS: 'true',
        PLATFORM_API_KEYS: PLATFORM_KEY,
        VIRTUAL_DEALER_PACE_MS: '30',
        TABLE_LEASE_TTL_MS: '5000',
      },
    });
    auditor = (await post('/auth/login', { username: 'auditor', password: 'auditor-demo' })).body
      .token as string;
    dealer = (await post('/auth/login', { username: 'dealer', password: 'dealer-demo' })).body
      .token as string;
    const platform = { 'x-platform-key': PLATFORM_KEY };

    // A Pok Deng round with two players' bets and an Infinite Blackjack round with a decision.
    const pok = await tableRound('pokdeng-audit');
    for (const [i, bet] of [
      { playerId: 'alice', betType: 'player', spot: '1', amount: 1_000 },
      { playerId: 'alice', betType: 'pair', spot: '1', amount: 1_000 },
      { playerId: 'bob', betType: 'player', spot: '2', amount: 5_000 },
    ].entries()) {
      const r = await post(
        '/platform/tables/pokdeng-audit/bets',
        { ...bet, commandId: `audit-pd-${i}`, currency: 'THB' },
        platform,
      );
      expect(r.body).toMatchObject({ accepted: true });
    }
    // An Infinite Blackjack round: p1 stands when asked, p2 says nothing (auto-played).
    const ibj = await tableRound('ibj-audit');
    ibjRoundId = ibj.id;
    for (const playerId of ['p1', 'p2']) {
      const r = await post(
        '/platform/tables/ibj-audit/bets',
        {
          commandId: `audit-ibj-${playerId}`,
          playerId,
          betType: 'main',
          amount: 1_000,
          sideBets: {},
        },
        platform,
      );
      expect(r.body).toMatchObject({ accepted: true });
    }
    await waitFor(
      'the Infinite Blackjack round to complete',
      async () => {
        if ((await roundStatus(ibj.id)) === 'completed') return true;
        const response = await fetch(`${studio.url}/tables/ibj-audit`, {
          headers: { authorization: `Bearer ${dealer}` },
        });
        const view = (await response.json()) as { round: { id: string; phase: string } | null };
        if (view.round?.id === ibj.id && view.round.phase === 'deciding') {
          await post(
            '/platform/tables/ibj-audit/decisions',
            { playerId: 'p1', action: 'stand' },
            platform,
          );
        }
        return undefined;
      },
      60_000,
      150,
    );
    await waitFor(
      'the Pok Deng round to complete',
      async () => (await roundStatus(pok.id)) === 'completed',
      60_000,
    );
    // A Lux round: a seat bet and a bet behind; nobody decides, so the service plays automatically.
    const lux = await tableRound('lux-audit');
    luxRoundId = lux.id;
    for (const [i, bet] of [
      { playerId: 'lena', betType: 'main', spot: '1', amount: 1_000 },
      { playerId: 'mo', betType: 'bet-behind', spot: '1', amount: 500 },
    ].entries()) {
      const r = await post(
        '/platform/tables/lux-audit/bets',
        { ...bet, commandId: `audit-lux-${i}`, currency: 'EUR' },
        platform,
      );
      expect(r.body).toMatchObject({ accepted: true });
    }
    await waitFor(
      'the Lux round to complete',
      async () => (await roundStatus(lux.id)) === 'completed',
      90_000,
    );
    await waitFor(
      'two completed practice rounds',
      async () => {
        const [{ n }] = await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM rounds WHERE table_id = 'practice-audit' AND status = 'completed'`,
        );
        return n >= 2;
      },
      60_000,
    );
    until = new Date(Date.now() + 1);
    // A voided and a paused round in the past, written as the store writes them, for the status filter.
    for (const [status, n] of [
      ['voided', 901],
      ['paused', 902],
    ] as const) {
      await q(
        `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, void_reason)
         VALUES ($1, 'pokdeng-audit', NULL, 99, $2, 'pok-deng', $3, 'betting', '2020-01-01T00:00:00Z', $4)`,
        [randomUUID(), n, status, status === 'voided' ? 'camera failure' : null],
      );
    }
    const [row] = (await search({ tableId: 'pokdeng-audit', playerId: 'alice' })).body.items;
    pokRound = row;
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  describe('API', () => {
    it('is for auditors only, and is described in the OpenAPI document at /docs/openapi.json', async () => {
      expect((await get('/audit/rounds', 'x'.repeat(32))).status).toBe(401);
      expect((await get('/audit/rounds', dealer)).status).toBe(403);
      expect((await get('/docs/openapi.json', '')).status).toBe(401);
      const doc = await get<{ openapi: string; paths: Record<string, unknown> }>(
        '/docs/openapi.json',
      );
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining([
          '/audit/rounds',
          '/audit/rounds/{roundId}/timeline',
          '/audit/rounds/{roundId}/replay',
          '/audit/replay',
          '/audit/players/{playerId}/bets',
          '/audit/export',
          '/audit/chain',
        ]),
      );
    });

    it('searches by table, game, status, time range, shoe and player', async () => {
      expect(pokRound).toMatchObject({
        tableId: 'pokdeng-audit',
        game: 'pok-deng',
        status: 'completed',
      });

      const byTable = (await search({ tableId: 'ibj-audit', limit: '500' })).body.items;
      expect(byTable.map((r) => r.id)).toContain(ibjRoundId);
      expect(new Set(byTable.map((r) => r.tableId))).toEqual(new Set(['ibj-audit']));

      const byGame = (await search({ game: 'european-blackjack-practice', limit: '500' })).body
        .items;
      expect(byGame.length).toBeGreaterThanOrEqual(2);
      expect(new Set(byGame.map((r) => r.tableId))).toEqual(new Set(['practice-audit']));

      const voided = (await search({ status: 'voided' })).body.items;
      expect(voided).toEqual([
        expect.objectContaining({ status: 'voided', tableId: 'pokdeng-audit' }),
      ]);
      const paused = (await search({ status: 'paused' })).body.items;
      expect(paused).toEqual([expect.objectContaining({ status: 'paused' })]);
      const completed = (await search({ status: 'completed', limit: '500' })).body.items;
      expect(completed.length).toBeGreaterThanOrEqual(4);
      expect(completed.every((r) => r.status === 'completed')).toBe(true);

      const start = Date.parse(pokRound.startedAt);
      const inRange = (
        await search({
          from: new Date(start).toISOString(),
          to: new Date(start + 1).toISOString(),
        })
      ).body.items;
      expect(inRange.map((r) => r.id)).toContain(pokRound.id);
      expect(inRange.every((r) => Date.parse(r.startedAt) === start)).toBe(true);
      const before2021 = (await search({ to: '2021-01-01T00:00:00Z' })).body.items;
      expect(before2021.map((r) => r.status).sort()).toEqual(['paused', 'voided']);

      const byShoe = (await search({ shoeId: pokRound.shoeId!, limit: '500' })).body.items;
      expect(byShoe.map((r) => r.id)).toContain(pokRound.id);
      expect(new Set(byShoe.map((r) => r.shoeId))).toEqual(new Set([pokRound.shoeId]));

      expect((await search({ playerId: 'alice' })).body.items.map((r) => r.id)).toEqual([
        pokRound.id,
      ]);
      const p1Rounds = (await search({ playerId: 'p1' })).body.items;
      const [{ n: p1Count }] = await q<{ n: number }>(
        `SELECT count(DISTINCT round_id)::int AS n FROM bets WHERE player_id = 'p1'`,
      );
      expect(p1Rounds).toHaveLength(p1Count);
      expect(p1Rounds.map((r) => r.id)).toContain(ibjRoundId);
      expect(new Set(p1Rounds.map((r) => r.tableId))).toEqual(new Set(['ibj-audit']));
      expect((await search({ playerId: 'nobody' })).body.items).toEqual([]);

      const bad = await search({ status: 'lost' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'bad-request' });
    });

    it('pages with a keyset cursor: every round once, newest first, the same as one big page', async () => {
      const filter = { from: since.toISOString(), to: until.toISOString() };
      const all = (await search({ ...filter, limit: '500' })).body.items;
      expect(all.length).toBeGreaterThanOrEqual(5);
      const paged: RoundSummary[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<typeof search>> = await search({
          ...filter,
          limit: '2',
          ...(cursor ? { cursor } : {}),
        });
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.body.items);
        cursor = page.body.nextCursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(Math.ceil(all.length / 2));
      expect(paged.map((r) => r.id)).toEqual(all.map((r) => r.id));
      const times = paged.map((r) => Date.parse(r.startedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((await search({ cursor: 'not-a-cursor' })).status).toBe(400);
    });

    it("shows a round's timeline: raw readings and bytes, cards with slots, bets, settlements, chained events", async () => {
      const { status, body } = await get<{
        round: RoundSummary;
        timeline: Array<Record<string, unknown> & { kind: string; at: string }>;
        hands: Array<{ hand: string; cards: string[]; total: string; result: string | null }>;
        counts: Record<string, number>;
      }>(`/audit/rounds/${pokRound.id}/timeline`);
      expect(status).toBe(200);
      expect(body.round.id).toBe(pokRound.id);
      const of = (kind: string) => body.timeline.filter((e) => e.kind === kind);
      const cards = of('card');
      expect(cards.map((c) => c.slot)).toEqual(
        expect.arrayContaining(['burn', 'player-1/1', 'player-1/2', 'banker/1', 'banker/2']),
      );
      expect(cards.length).toBeGreaterThanOrEqual(13);
      // Each scanned card is next to the reading it came from, with the bytes the reader sent.
      const readings = new Map(of('reading').map((r) => [r.readingId, r]));
      for (const card of cards.filter((c) => c.readingId !== null)) {
        const reading = readings.get(card.readingId as string);
        expect(reading).toMatchObject({ readingKind: 'card', decoded: { code: card.card } });
        expect(reading!.rawHex).toMatch(/^([0-9a-f]{2})+$/);
      }
      const rescansAnnounced = of('event').filter((e) => e.type === 'RescanRequired').length;
      if (rescansAnnounced > 0) expect(of('reading').some((r) => r.rescan === true)).toBe(true);
      expect(
        of('bet')
          .map((b) => `${b.playerId}/${b.betType}/${b.amount}`)
          .sort(),
      ).toEqual(['alice/pair/1000', 'alice/player/1000', 'bob/player/5000']);
      expect(of('settlement')).toHaveLength(3);
      const events = of('event');
      expect(events.map((e) => e.type)).toEqual(
        expect.arrayContaining(['BetsSettled', 'RoundCompleted']),
      );
      for (const e of events) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
      const times = body.timeline.map((e) => e.at);
      expect(times).toEqual([...times].sort());
      expect(body.counts.card).toBe(cards.length);
      expect(body.hands.map((h) => h.hand)).toEqual([
        'player-1',
        'player-2',
        'player-3',
        'player-4',
        'player-5',
        'banker',
      ]);
      for (const h of body.hands) {
        expect(h.cards).toEqual(
          ['1', '2'].map(
            (n) => cards.find((c) => c.slot === `${h.hand}/${n}` && !c.correctedByCardRowId)!.card,
          ),
        );
      }

      // Bots' decisions are the engine's own: marked automatic, a player's are not.
      const [practice] = await q<{ round_id: string }>(
        `SELECT round_id FROM decisions WHERE player_id LIKE 'bot:%' ORDER BY id LIMIT 1`,
      );
      const bots = await get<{ timeline: Array<Record<string, unknown>> }>(
        `/audit/rounds/${practice.round_id}/timeline`,
      );
      const botDecisions = bots.body.timeline.filter((e) => e.kind === 'decision');
      expect(botDecisions.length).toBeGreaterThan(0);
      expect(
        botDecisions.every((d) => d.automatic === true && String(d.playerId).startsWith('bot:')),
      ).toBe(true);
      const ibj = await get<{ timeline: Array<Record<string, unknown>> }>(
        `/audit/rounds/${ibjRoundId!}/timeline`,
      );
      const stored = await q<{ player_id: string; action: string; automatic: boolean }>(
        `SELECT player_id, action, automatic FROM decisions WHERE round_id = $1 ORDER BY id`,
        [ibjRoundId],
      );
      expect(
        ibj.body.timeline
          .filter((e) => e.kind === 'decision')
          .map((d) => ({ player_id: d.playerId, action: d.action, automatic: d.automatic })),
      ).toEqual(stored);

      expect((await get(`/audit/rounds/${randomUUID()}/timeline`)).status).toBe(404);
    });

    it("lists a player's bets with their settlements, paged", async () => {
      const first = await get<{ items: Array<Record<string, unknown>>; nextCursor: string | null }>(
        '/audit/players/alice/bets?limit=1',
      );
      expect(first.body.items).toHaveLength(1);
      expect(first.body.nextCursor).not.toBeNull();
      const second = await get<{
        items: Array<Record<string, unknown>>;
        nextCursor: string | null;
      }>(`/audit/players/alice/bets?limit=1&cursor=${first.body.nextCursor}`);
      expect(second.body.nextCursor).toBeNull();
      const bets = [...first.body.items, ...second.body.items];
      expect(bets.map((b) => b.betType).sort()).toEqual(['pair', 'player']);
      const settled = await q<{ bet_id: string; returned: string }>(
        `SELECT bet_id, returned FROM settlements WHERE player_id = 'alice'`,
      );
      for (const bet of bets) {
        expect(bet).toMatchObject({
          roundId: pokRound.id,
          tableId: 'pokdeng-audit',
          status: 'settled',
        });
        expect((bet.settlement as { returned: number }).returned).toBe(
          Number(settled.find((s) => s.bet_id === bet.betId)!.returned),
        );
      }
    });

    it('exports a time range as streamed CSV and NDJSON, one line per round with its totals', async () => {
      const range = { from: since.toISOString(), to: until.toISOString() };
      const all = (await search({ ...range, limit: '500' })).body.items;
      const csv = await get(`/audit/export?${new URLSearchParams({ ...range, format: 'csv' })}`);
      expect(csv.status).toBe(200);
      expect(csv.type).toContain('text/csv');
      const lines = csv.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'roundId,tableId,game,shoeId,shoeNumber,roundNumber,status,startedAt,endedAt,voidReason,bets,staked,returned,net',
      );
      expect(lines).toHaveLength(all.length + 1);
      const pokLine = lines.find((l) => l.startsWith(pokRound.id))!.split(',');
      const [totals] = await q<{ staked: string; returned: string }>(
        `SELECT sum(stake) AS staked, sum(returned) AS returned FROM settlements WHERE round_id = $1`,
        [pokRound.id],
      );
      expect(pokLine.slice(10)).toEqual([
        '3',
        totals.staked,
        totals.returned,
        String(Number(totals.returned) - Number(totals.staked)),
      ]);

      const nd = await get(`/audit/export?${new URLSearchParams({ ...range, format: 'ndjson' })}`);
      expect(nd.type).toContain('application/x-ndjson');
      const rows = nd.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { roundId: string; startedAt: string });
      // Oldest first, the same rounds as the search.
      expect(rows.map((r) => r.roundId)).toEqual(all.map((r) => r.id).reverse());
      expect((await get('/audit/export?format=csv')).status).toBe(400);
      expect(
        (await get(`/audit/export?${new URLSearchParams({ ...range, format: 'xml' })}`)).status,
      ).toBe(400);
    });
  });

  describe('replay verification', () => {
    it('replays every completed round the orchestrator produced to its stored settlements', async () => {
      const { body } = await get<RangeVerdict>(
        `/audit/replay?${new URLSearchParams({ from: since.toISOString(), to: until.toISOString() })}`,
      );
      expect(body.failed).toEqual([]);
      const [{ completed }] = await q<{ completed: number }>(
        `SELECT count(*)::int AS completed FROM rounds WHERE status = 'completed' AND started_at >= $1 AND started_at < $2`,
        [since, until],
      );
      expect(body.matched).toBe(completed);
      expect(completed).toBeGreaterThanOrEqual(4);
      const games = await q<{ game: string }>(
        `SELECT DISTINCT game FROM rounds WHERE status = 'completed' AND started_at < $1 ORDER BY game`,
        [until],
      );
      expect(games.map((g) => g.game)).toEqual([
        'blackjack-lux',
        'european-blackjack-practice',
        'infinite-blackjack',
        'pok-deng',
      ]);
      const lux = await get<RoundVerdict>(`/audit/rounds/${luxRoundId}/replay`);
      expect(lux.body).toMatchObject({ verdict: 'match', settlements: 2 });
      const one = await get<RoundVerdict>(`/audit/rounds/${pokRound.id}/replay`);
      expect(one.body).toEqual({
        roundId: pokRound.id,
        tableId: 'pokdeng-audit',
        game: 'pok-deng',
        verdict: 'match',
        settlements: 3,
      });
    });

    it('replays a round under the rules it was played with, after the table was reconfigured', async () => {
      const [{ configuration }] = await q<{ configuration: Record<string, unknown> }>(
        `SELECT configuration FROM studio_tables WHERE id = 'pokdeng-audit'`,
      );
      // A Player N bet now deducts 5 times its amount instead of 2: every settlement would differ.
      await q(`UPDATE studio_tables SET configuration = $1 WHERE id = 'pokdeng-audit'`, [
        { ...configuration, rules: { ...(configuration.rules as object), depositMultiple: 5 } },
      ]);
      try {
        const kept = await get<RoundVerdict>(`/audit/rounds/${pokRound.id}/replay`);
        expect(kept.body).toMatchObject({ verdict: 'match', settlements: 3 });
        // Without the round's own copy, the replay takes the table's configuration of today.
        const [{ own }] = await q<{ own: unknown }>(
          `WITH old AS (SELECT configuration FROM rounds WHERE id = $1)
           UPDATE rounds SET configuration = NULL WHERE id = $1 RETURNING (SELECT configuration FROM old) AS own`,
          [pokRound.id],
        );
        const today = await get<RoundVerdict>(`/audit/rounds/${pokRound.id}/replay`);
        expect(today.body).toMatchObject({ verdict: 'mismatch' });
        await q(`UPDATE rounds SET configuration = $2 WHERE id = $1`, [pokRound.id, own]);
      } finally {
        await q(`UPDATE studio_tables SET configuration = $1 WHERE id = 'pokdeng-audit'`, [
          configuration,
        ]);
      }
    });

    it('fails precisely on a round whose stored settlement was altered, over the API and the CLI', async () => {
      const [victim] = await q<{ id: string; idx: number; returned: string; net: string }>(
        `SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS idx, returned, net
           FROM settlements WHERE round_id = $1 ORDER BY id OFFSET 1 LIMIT 1`,
        [pokRound.id],
      );
      await q(`UPDATE settlements SET returned = returned + 1000, net = net + 1000 WHERE id = $1`, [
        victim.id,
      ]);
      try {
        const { body } = await get<RoundVerdict>(`/audit/rounds/${pokRound.id}/replay`);
        expect(body).toEqual({
          roundId: pokRound.id,
          tableId: 'pokdeng-audit',
          game: 'pok-deng',
          verdict: 'mismatch',
          mismatches: [
            {
              field: 'settlement[1].returned',
              stored: Number(victim.returned) + 1000,
              replayed: Number(victim.returned),
            },
            {
              field: 'settlement[1].net',
              stored: Number(victim.net) + 1000,
              replayed: Number(victim.net),
            },
          ],
        });
        const range = await get<RangeVerdict>(
          `/audit/replay?${new URLSearchParams({ from: since.toISOString(), to: until.toISOString() })}`,
        );
        expect(range.body.failed.map((f) => f.roundId)).toEqual([pokRound.id]);

        const out: string[] = [];
        const code = await runAuditCli(
          'verify-replay',
          ['--from', since.toISOString(), '--to', until.toISOString()],
          q,
          (line) => out.push(line),
        );
        expect(code).toBe(1);
        expect(out.join('\n')).toContain(
          `MISMATCH  round ${pokRound.id} (pokdeng-audit, pok-deng):\n  settlement[1].returned: stored ${Number(victim.returned) + 1000}, replay gives ${victim.returned}`,
        );
      } finally {
        await q(`UPDATE settlements SET returned = $2, net = $3 WHERE id = $1`, [
          victim.id,
          victim.returned,
          victim.net,
        ]);
      }
      const out: string[] = [];
      expect(
        await runAuditCli('verify-replay', ['--round', pokRound.id], q, (l) => out.push(l)),
      ).toBe(0);
      expect(out).toEqual([
        `MATCH     round ${pokRound.id} (pokdeng-audit, pok-deng): 3 settlement(s) as stored`,
      ]);
    });
  });

  describe('face-down cards for auditors', () => {
    interface Timeline {
      round: RoundSummary;
      timeline: Array<Record<string, unknown> & { kind: string }>;
      hands: unknown[];
    }
    interface StoredCardRow {
      id: string;
      card: string;
      reading_id: string | null;
      face_down: boolean;
      revealed_at: Date | null;
    }
    const cardRows = (roundId: string) =>
      q<StoredCardRow>(
        `SELECT id::text, card, reading_id::text, face_down, revealed_at FROM round_cards
          WHERE round_id = $1 ORDER BY id`,
        [roundId],
      );
    const rawHex = async (readingIds: string[]) =>
      (
        await q<{ hex: string }>(
          `SELECT encode(raw, 'hex') AS hex FROM scanner_readings WHERE id = ANY($1::bigint[])`,
          [readingIds],
        )
      ).map((r) => r.hex);

    /** Every auditor answer that concerns the round (and the player who bet on it). */
    async function answersAbout(roundId: string, playerId: string) {
      const timeline = await get<Timeline>(`/audit/rounds/${roundId}/timeline`);
      const range = {
        from: timeline.body.round.startedAt,
        to: new Date(Date.now() + 60_000).toISOString(),
      };
      const others = await Promise.all([
        get(`/audit/rounds?${new URLSearchParams({ tableId: 'pokdeng-audit', playerId })}`),
        get(`/audit/players/${playerId}/bets`),
        get(`/audit/export?${new URLSearchParams({ ...range, format: 'csv' })}`),
        get(`/audit/export?${new URLSearchParams({ ...range, format: 'ndjson' })}`),
      ]);
      for (const a of [timeline, ...others]) expect(a.status).toBe(200);
      return { timeline: timeline.body, texts: [timeline.text, ...others.map((a) => a.text)] };
    }

    it('withholds face-down values, restricted events and their raw bytes until the round ends, then shows them', async () => {
      const platform = { 'x-platform-key': PLATFORM_KEY };
      let seen:
        | {
            round: RoundSummary;
            hidden: StoredCardRow[];
            answers: Awaited<ReturnType<typeof answersAbout>>;
          }
        | undefined;
      // Betting is open while the Pok Deng cards are dealt face down: catch a round there.
      for (let attempt = 0; attempt < 5 && !seen; attempt += 1) {
        const open = await tableRound('pokdeng-audit');
        const playerId = `hidden-${attempt}`;
        const bet = await post(
          '/platform/tables/pokdeng-audit/bets',
          {
            playerId,
            betType: 'player',
            spot: '1',
            amount: 1_000,
            commandId: `audit-hidden-${attempt}`,
            currency: 'THB',
          },
          platform,
        );
        if (!(bet.body as { accepted?: boolean }).accepted) continue;
        await waitFor(
          'a face-down card of the open round',
          async () =>
            (await cardRows(open.id)).some((c) => c.face_down && c.revealed_at === null) ||
            (await roundStatus(open.id)) !== 'in-progress' ||
            undefined,
          10_000,
          20,
        );
        const answers = await answersAbout(open.id, playerId);
        // Checked after the answers: a card still face down now was face down when they were made.
        const status = await roundStatus(open.id);
        const hidden = (await cardRows(open.id)).filter(
          (c) => c.face_down && c.revealed_at === null,
        );
        if (status === 'in-progress' && hidden.length > 0) {
          seen = { round: answers.timeline.round, hidden, answers };
        }
      }
      expect(seen).toBeDefined();
      const { round, hidden, answers } = seen!;
      const shownCards = new Map(
        answers.timeline.timeline.filter((e) => e.kind === 'card').map((c) => [c.cardRowId, c]),
      );
      const hiddenInAnswer = hidden.filter((c) => shownCards.has(c.id));
      expect(hiddenInAnswer.length).toBeGreaterThan(0);
      for (const c of hiddenInAnswer) {
        expect(shownCards.get(c.id)).toMatchObject({ card: null, faceDown: true, withheld: true });
      }
      const readings = answers.timeline.timeline.filter((e) => e.kind === 'reading');
      const hiddenReadings = hiddenInAnswer.map((c) => c.reading_id).filter((id) => id !== null);
      for (const r of readings.filter((e) => hiddenReadings.includes(e.readingId as string))) {
        expect(r).toMatchObject({
          rawHex: null,
          decoded: null,
          outcomeDetail: null,
          withheld: true,
        });
      }
      const events = answers.timeline.timeline.filter((e) => e.kind === 'event');
      expect(events.every((e) => e.visibility === 'public' && e.hash === undefined)).toBe(true);
      expect(answers.timeline.hands).toEqual([]);
      // No hidden value anywhere in any answer: not as a card code, not in the raw bytes.
      const visible = new Set(
        (await cardRows(round.id))
          .filter((c) => !(c.face_down && c.revealed_at === null))
          .map((c) => c.card),
      );
      const secretCodes = hiddenInAnswer.map((c) => c.card).filter((code) => !visible.has(code));
      const secretBytes = await rawHex(hiddenReadings as string[]);
      expect(secretBytes.length).toBeGreaterThan(0);
      for (const text of answers.texts) {
        for (const code of secretCodes) expect(text).not.toContain(`"${code}"`);
        for (const hex of secretBytes) expect(text).not.toContain(hex);
        expect(text).not.toContain('HiddenCardRecorded');
      }

      // After the end, everything as stored.
      await waitFor(
        'the round to end',
        async () => (await roundStatus(round.id)) === 'completed',
        60_000,
      );
      const after = await get<Timeline>(`/audit/rounds/${round.id}/timeline`);
      const stored = new Map((await cardRows(round.id)).map((c) => [c.id, c]));
      const afterCards = after.body.timeline.filter((e) => e.kind === 'card');
      for (const c of hiddenInAnswer) {
        expect(afterCards.find((e) => e.cardRowId === c.id)).toMatchObject({
          card: stored.get(c.id)!.card,
        });
      }
      expect(afterCards.some((e) => 'withheld' in e)).toBe(false);
      const afterReadings = after.body.timeline.filter((e) => e.kind === 'reading');
      for (const hex of secretBytes) expect(afterReadings.map((r) => r.rawHex)).toContain(hex);
      const afterEvents = after.body.timeline.filter((e) => e.kind === 'event');
      expect(afterEvents.map((e) => e.type)).toContain('HiddenCardRecorded');
      for (const e of afterEvents) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(after.body.hands.length).toBeGreaterThan(0);
    });

    it("withholds the practice dealer's hidden card while a player decides, and shows it after the end", async () => {
      let caught: { roundId: string; hidden: StoredCardRow[]; body: Timeline } | undefined;
      for (let attempt = 0; attempt < 10 && !caught; attempt += 1) {
        // With a human seated, the dealer's hidden card lies face down for the decision window.
        const deciding = await tableRound('practice-audit');
        const bet = await post(
          '/platform/tables/practice-audit/bets',
          {
            commandId: `audit-practice-${attempt}`,
            playerId: `hana-${attempt}`,
            betType: 'main',
            spot: '4',
            amount: 200,
            currency: 'XPT',
          },
          { 'x-platform-key': PLATFORM_KEY },
        );
        if (!(bet.body as { accepted?: boolean }).accepted) continue;
        await waitFor(
          "the dealer's hidden card",
          async () =>
            (await cardRows(deciding.id)).some((c) => c.face_down && c.revealed_at === null) ||
            (await roundStatus(deciding.id)) !== 'in-progress' ||
            undefined,
          30_000,
          10,
        );
        const answer = await get<Timeline>(`/audit/rounds/${deciding.id}/timeline`);
        expect(answer.status).toBe(200);
        const hidden = (await cardRows(deciding.id)).filter(
          (c) => c.face_down && c.revealed_at === null,
        );
        if ((await roundStatus(deciding.id)) === 'in-progress' && hidden.length > 0) {
          caught = { roundId: deciding.id, hidden, body: answer.body };
        }
      }
      expect(caught).toBeDefined();
      const { roundId, hidden, body } = caught!;
      const shown = body.timeline.filter((e) => e.kind === 'card');
      const dealerHidden = hidden.filter((c) => shown.some((e) => e.cardRowId === c.id));
      expect(dealerHidden.map((c) => c.id).length).toBeGreaterThan(0);
      for (const c of dealerHidden) {
        expect(shown.find((e) => e.cardRowId === c.id)).toMatchObject({
          card: null,
          withheld: true,
        });
      }
      expect(body.timeline.some((e) => e.kind === 'event' && e.visibility !== 'public')).toBe(
        false,
      );

      await waitFor(
        'the practice round to end',
        async () => (await roundStatus(roundId)) === 'completed',
        60_000,
      );
      const after = await get<Timeline>(`/audit/rounds/${roundId}/timeline`);
      const stored = new Map((await cardRows(roundId)).map((c) => [c.id, c.card]));
      for (const c of dealerHidden) {
        expect(
          after.body.timeline.find((e) => e.kind === 'card' && e.cardRowId === c.id),
        ).toMatchObject({ card: stored.get(c.id) });
      }
    });
  });

  describe('bad input', () => {
    async function refused(path: string, error: string) {
      const answer = await get<{ error: string; message: string }>(path);
      expect({ path, status: answer.status, type: answer.type }).toEqual({
        path,
        status: 400,
        type: expect.stringContaining('application/json'),
      });
      expect(answer.body.error).toBe(error);
      expect(answer.body.message.length).toBeGreaterThan(0);
      return answer.body;
    }
    const range = () => ({ from: since.toISOString(), to: until.toISOString() });

    it('answers 400 with a specific code to NUL, repeated keys and long text in any text parameter', async () => {
      for (const name of ['tableId', 'game', 'playerId', 'status', 'shoeId']) {
        expect(await refused(`/audit/rounds?${name}=a%00b`, 'invalid-text')).toMatchObject({
          message: `${name} must not contain a NUL character`,
        });
        await refused(
          `/audit/export?${new URLSearchParams(range())}&${name}=a%00b`,
          'invalid-text',
        );
      }
      await refused('/audit/rounds?tableId=a&tableId=b', 'invalid-text');
      await refused(`/audit/rounds?game=${'g'.repeat(201)}`, 'invalid-text');
      await refused('/audit/players/al%00ice/bets', 'invalid-text');
      await refused('/audit/chain?tableId=pokdeng%00-audit', 'invalid-text');
      await refused(`/audit/replay?${new URLSearchParams(range())}&tableId=%00`, 'invalid-text');
      await refused(`/audit/export?${new URLSearchParams(range())}&format=csv%00`, 'invalid-text');
      // A lone surrogate cannot be percent-encoded as UTF-8: its bytes are never a 500 either.
      for (const path of ['/audit/players/%ED%A0%80/bets', '/audit/rounds?playerId=%ED%A0%80']) {
        expect((await get(path)).status).toBeLessThan(500);
      }
      expect((await get('/audit/rounds/%00/timeline')).status).toBe(400);
      expect((await get('/audit/rounds/------------------------------------/replay')).status).toBe(
        400,
      );
    });

    it('answers 400 invalid-cursor to a garbled or crafted cursor', async () => {
      const crafted = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const issued = (await search({ limit: '1' })).body.nextCursor!;
      const [at] = JSON.parse(Buffer.from(issued, 'base64url').toString()) as [string, string];
      const garbled = [
        '%%%',
        issued.slice(0, -3),
        crafted(['2026-13-45 99:99:99+00', randomUUID()]),
        crafted([at, 'a\u0000b']),
        crafted([at, 7]),
        crafted(['0000-01-01 00:00:00+00', randomUUID()]),
      ];
      for (const cursor of garbled) {
        await refused(`/audit/rounds?${new URLSearchParams({ cursor })}`, 'invalid-cursor');
        await refused(
          `/audit/players/alice/bets?${new URLSearchParams({ cursor })}`,
          'invalid-cursor',
        );
      }
      // Round cursors name rounds by uuid; a bet id is any text.
      const betCursor = crafted([at, 'not-a-uuid']);
      await refused(
        `/audit/rounds?${new URLSearchParams({ cursor: betCursor })}`,
        'invalid-cursor',
      );
      expect((await get(`/audit/players/alice/bets?cursor=${betCursor}`)).status).toBe(200);
    });

    it('answers 400 invalid-time to a malformed or out-of-range date, before an export streams', async () => {
      for (const time of [
        'yesterday',
        '2026-02-30',
        '2026-11-29T25:00:00Z',
        '+275760-09-13T00:00:00Z',
        '0001-01-01',
      ]) {
        await refused(`/audit/rounds?${new URLSearchParams({ from: time })}`, 'invalid-time');
        await refused(
          `/audit/players/alice/bets?${new URLSearchParams({ to: time })}`,
          'invalid-time',
        );
        await refused(
          `/audit/export?${new URLSearchParams({ ...range(), to: time })}`,
          'invalid-time',
        );
        await refused(
          `/audit/replay?${new URLSearchParams({ ...range(), from: time })}`,
          'invalid-time',
        );
      }
    });

    it('caps what one replay call verifies', async () => {
      const week = await refused(
        `/audit/replay?${new URLSearchParams({ from: '2026-01-01T00:00:00Z', to: '2026-01-08T00:00:01Z' })}`,
        'range-too-large',
      );
      expect(week.message).toContain('7 days');
      // A range within the caps is verified.
      expect((await get(`/audit/replay?${new URLSearchParams(range())}`)).status).toBe(200);
    });
  });

  describe('tamper evidence', () => {
    const TABLE = 'pokdeng-audit';
    const chain = async () =>
      (await get<Array<Record<string, unknown>>>(`/audit/chain?tableId=${TABLE}`)).body[0];

    it('finds every table chain intact', async () => {
      const { body } =
        await get<Array<{ tableId: string; intact: boolean; events: number }>>('/audit/chain');
      expect(body.map((v) => v.tableId)).toEqual([
        'ibj-audit',
        'lux-audit',
        'pokdeng-audit',
        'practice-audit',
      ]);
      for (const v of body) {
        expect(v.intact).toBe(true);
        expect(v.events).toBeGreaterThan(10);
      }
      const out: string[] = [];
      expect(await runAuditCli('verify-chain', [], q, (l) => out.push(l))).toBe(0);
      expect(out).toHaveLength(4);
    });

    it('names an edited row', async () => {
      const [row] = await q<{ id: string; payload: unknown }>(
        `SELECT id, payload FROM round_events WHERE table_id = $1 AND event_no = 5`,
        [TABLE],
      );
      await q(
        `UPDATE round_events SET payload = payload || '{"amount": 999999}'::jsonb WHERE id = $1`,
        [row.id],
      );
      try {
        expect(await chain()).toMatchObject({
          intact: false,
          events: 4,
          firstBrokenLink: { eventNo: 5, rowId: String(row.id), reason: 'hash-mismatch' },
        });
        const out: string[] = [];
        expect(await runAuditCli('verify-chain', ['--table', TABLE], q, (l) => out.push(l))).toBe(
          1,
        );
        expect(out[0]).toMatch(
          new RegExp(
            `^BROKEN    ${TABLE}: first broken link at event_no 5 \\(row id ${row.id}\\): hash-mismatch`,
          ),
        );
      } finally {
        await q(`UPDATE round_events SET payload = $2 WHERE id = $1`, [
          row.id,
          JSON.stringify(row.payload),
        ]);
      }
      expect(await chain()).toMatchObject({ intact: true });
    });

    it('names the link after a deleted row, also when later rows are renumbered to hide the gap', async () => {
      const [row] = await q<Record<string, unknown>>(
        `SELECT * FROM round_events WHERE table_id = $1 AND event_no = 7`,
        [TABLE],
      );
      await q(`DELETE FROM round_events WHERE id = $1`, [row.id]);
      try {
        expect(await chain()).toMatchObject({
          intact: false,
          events: 6,
          firstBrokenLink: { eventNo: 8, reason: 'event-number-gap', expected: '7', found: '8' },
        });
        // Shift 8..10 down by one (via negatives, the numbers are unique): the gap moves, the hashes break.
        await q(
          `UPDATE round_events SET event_no = -event_no WHERE table_id = $1 AND event_no BETWEEN 8 AND 10`,
          [TABLE],
        );
        await q(
          `UPDATE round_events SET event_no = -event_no - 1 WHERE table_id = $1 AND event_no < 0`,
          [TABLE],
        );
        expect(await chain()).toMatchObject({
          intact: false,
          events: 6,
          firstBrokenLink: { eventNo: 7, reason: 'prev-hash-mismatch' },
        });
        await q(
          `UPDATE round_events SET event_no = -event_no WHERE table_id = $1 AND event_no BETWEEN 7 AND 9`,
          [TABLE],
        );
        await q(
          `UPDATE round_events SET event_no = -event_no + 1 WHERE table_id = $1 AND event_no < 0`,
          [TABLE],
        );
      } finally {
        await q(
          `INSERT INTO round_events (id, table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            row.id,
            row.table_id,
            row.event_no,
            row.round_id,
            row.type,
            row.visibility,
            JSON.stringify(row.payload),
            row.actor,
            row.occurred_at,
            row.prev_hash,
            row.hash,
          ],
        );
      }
      expect(await chain()).toMatchObject({ intact: true });
    });

    it('names the first of two reordered rows', async () => {
      const rows = await q<{ id: string; event_no: string }>(
        `SELECT id, event_no FROM round_events WHERE table_id = $1 AND event_no IN (3, 4) ORDER BY event_no`,
        [TABLE],
      );
      const swap = async () => {
        await q(`UPDATE round_events SET event_no = -1 WHERE id = $1`, [rows[0].id]);
        await q(`UPDATE round_events SET event_no = 3 WHERE id = $1`, [rows[1].id]);
        await q(`UPDATE round_events SET event_no = 4 WHERE id = $1`, [rows[0].id]);
      };
      await swap();
      try {
        expect(await chain()).toMatchObject({
          intact: false,
          events: 2,
          firstBrokenLink: { eventNo: 3, rowId: String(rows[1].id), reason: 'prev-hash-mismatch' },
        });
      } finally {
        await q(`UPDATE round_events SET event_no = -1 WHERE id = $1`, [rows[1].id]);
        await q(`UPDATE round_events SET event_no = 3 WHERE id = $1`, [rows[0].id]);
        await q(`UPDATE round_events SET event_no = 4 WHERE id = $1`, [rows[1].id]);
      }
      expect(await chain()).toMatchObject({ intact: true });
    });
  });
});
