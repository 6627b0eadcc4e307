import { randomUUID } from 'node:crypto';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { virtualShoeScanner } from './orchestrator-tables';
import { postJson, startTestStudio, waitFor } from './studio-harness';
import { createTestDatabase, TestDatabase } from './test-database';

/**
 * The auditor API's test setup, shared by the audit e2e files: the real service on a database of
 * the file's own, with rounds played by the orchestrator (bets over the platform API, cards from
 * virtual shoes with misreads, decisions and auto-play, bot rounds) and a voided and a paused
 * round in the past, ready to be searched, traced, exported, replayed and tampered with.
 */

export const PLATFORM_KEY = 'test-platform-key';

/**
 * Of a 2.5 s betting window: the time a round must have left when its bets start. They are sent one
 * after another, and on a loaded machine a round caught near its close refused the later ones.
 */
const MIN_BETTING_LEFT_MS = 1_800;

/** The orchestrator's games, on virtual shoes over real pseudo-terminals, as in its e2e tests. */
export const AUDIT_TABLES: TableDefinition[] = [
  {
    id: 'pokdeng-audit',
    name: 'Pok Deng audit',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 2_500,
    roundIntervalMs: 300,
    scanner: virtualShoeScanner(11, 0.2),
  },
  {
    id: 'ibj-audit',
    name: 'Infinite Blackjack audit',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 2_500,
    decisionWindowMs: 1_000,
    roundIntervalMs: 300,
    scanner: virtualShoeScanner(22, 0.2),
  },
  {
    id: 'lux-audit',
    name: 'Blackjack Lux audit',
    game: 'blackjack-lux',
    currency: 'EUR',
    bettingWindowMs: 2_500,
    decisionWindowMs: 1_000,
    roundIntervalMs: 300,
    scanner: virtualShoeScanner(44, 0.1),
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

export interface RoundSummary {
  id: string;
  tableId: string;
  game: string;
  shoeId: string | null;
  status: string;
  startedAt: string;
}

export interface SeededRounds {
  /** A moment after every seeded round completed (`since` is one before they started). */
  readonly until: Date;
  /** The Pok Deng round alice and bob bet on. */
  readonly pokRound: RoundSummary;
  /** The Infinite Blackjack round where p1 stood and p2 was auto-played. */
  readonly ibjRoundId: string;
  /** The Lux round with a seat bet and a bet behind, played automatically. */
  readonly luxRoundId: string;
}

/**
 * Registers the file's beforeAll (its own database, the studio, the seeded rounds) and afterAll,
 * and returns the helpers its tests call once beforeAll has run. With `kafka`, the studio publishes
 * its events there.
 */
export function useAuditStudio(
  label: string,
  kafka?: { kafkaBrokers: string; topicPrefix: string },
) {
  let db: TestDatabase | undefined;
  let studio: RunningStudio | undefined;
  let seeded: SeededRounds | undefined;
  let auditor = '';
  let dealer = '';
  const since = new Date(Date.now() - 1_000);

  const running = (): RunningStudio => {
    if (!studio) throw new Error('the audit studio has not started');
    return studio;
  };
  const rounds = (): SeededRounds => {
    if (!seeded) throw new Error('the audit rounds have not been played');
    return seeded;
  };

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    running().database.dataSource.query(sql, params);

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(running().url, path, body, headers);

  async function get<T = Record<string, unknown>>(path: string, token = auditor) {
    const response = await fetch(`${running().url}${path}`, {
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

  /**
   * The table's round whose betting is open with at least `minLeftMs` to go (a round other than
   * `after`, when given).
   */
  async function tableRound(tableId: string, after?: string, minLeftMs = 0) {
    return waitFor(
      `${tableId} to open betting`,
      async () => {
        const response = await fetch(`${running().url}/tables/${tableId}`, {
          headers: { authorization: `Bearer ${dealer}` },
        });
        const view = (await response.json()) as {
          round: { id: string; phase: string; bettingOpen: boolean } | null;
          timers: { name: string; dueAt: string }[];
        };
        if (!view.round?.bettingOpen || view.round.id === after) return undefined;
        // In a round the only timers are the engine's: while betting is open, the betting window.
        const closesAt = Math.min(...view.timers.map((t) => Date.parse(t.dueAt)));
        return closesAt - Date.now() >= minLeftMs ? view.round : undefined;
      },
      60_000,
      50,
    );
  }

  async function roundStatus(roundId: string) {
    const [row] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [roundId]);
    return row?.status;
  }

  /**
   * Places the bets in one round of the table, all accepted. When that round's betting closes
   * before the first bet lands (a slow machine), the bets go to the next round instead; a later
   * bet refused fails the test (the first is in that round already).
   */
  async function betInOneRound(tableId: string, commandPrefix: string, bets: object[]) {
    let refused: string | undefined;
    for (let attempt = 0; ; attempt += 1) {
      const round = await tableRound(tableId, refused, MIN_BETTING_LEFT_MS);
      const commandId = (i: number) => `${commandPrefix}-${i}${attempt ? `-retry-${attempt}` : ''}`;
      const first = await post(
        `/platform/tables/${tableId}/bets`,
        { ...bets[0], commandId: commandId(0) },
        { 'x-platform-key': PLATFORM_KEY },
      );
      if (first.body.error === 'betting-closed' && attempt < 3) {
        refused = round.id;
        continue;
      }
      expect(first.body).toMatchObject({ accepted: true });
      for (const [i, bet] of bets.entries()) {
        if (i === 0) continue;
        const r = await post(
          `/platform/tables/${tableId}/bets`,
          { ...bet, commandId: commandId(i) },
          { 'x-platform-key': PLATFORM_KEY },
        );
        expect(r.body).toMatchObject({ accepted: true });
      }
      return round;
    }
  }

  /** Bets over the platform API on each table, each round played to its end by the service. */
  async function playRounds(): Promise<SeededRounds> {
    const platform = { 'x-platform-key': PLATFORM_KEY };

    // A Pok Deng round with two players' bets and an Infinite Blackjack round with a decision.
    const pok = await betInOneRound('pokdeng-audit', 'audit-pd', [
      { playerId: 'alice', betType: 'player', spot: '1', amount: 1_000, currency: 'THB' },
      { playerId: 'alice', betType: 'pair', spot: '1', amount: 1_000, currency: 'THB' },
      { playerId: 'bob', betType: 'player', spot: '2', amount: 5_000, currency: 'THB' },
    ]);
    // An Infinite Blackjack round: p1 stands when asked, p2 says nothing (auto-played).
    const ibj = await betInOneRound(
      'ibj-audit',
      'audit-ibj',
      ['p1', 'p2'].map((playerId) => ({ playerId, betType: 'main', amount: 1_000, sideBets: {} })),
    );
    await waitFor(
      'the Infinite Blackjack round to complete',
      async () => {
        if ((await roundStatus(ibj.id)) === 'completed') return true;
        const response = await fetch(`${running().url}/tables/ibj-audit`, {
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
    const lux = await betInOneRound('lux-audit', 'audit-lux', [
      { playerId: 'lena', betType: 'main', spot: '1', amount: 1_000, currency: 'EUR' },
      { playerId: 'mo', betType: 'bet-behind', spot: '1', amount: 500, currency: 'EUR' },
    ]);
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
    const until = new Date(Date.now() + 1);
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
    const [pokRound] = (await search({ tableId: 'pokdeng-audit', playerId: 'alice' })).body.items;
    return { until, pokRound, ibjRoundId: ibj.id, luxRoundId: lux.id };
  }

  beforeAll(async () => {
    db = await createTestDatabase(label);
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: AUDIT_TABLES,
      ...kafka,
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
    seeded = await playRounds();
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  return {
    q,
    post,
    get,
    search,
    /** The studio's database, as an operator's DATABASE_URL names it. */
    get databaseUrl() {
      return db!.url;
    },
    tableRound,
    roundStatus,
    since,
    get auditor() {
      return auditor;
    },
    get dealer() {
      return dealer;
    },
    get until() {
      return rounds().until;
    },
    get pokRound() {
      return rounds().pokRound;
    },
    get ibjRoundId() {
      return rounds().ibjRoundId;
    },
    get luxRoundId() {
      return rounds().luxRoundId;
    },
  };
}
