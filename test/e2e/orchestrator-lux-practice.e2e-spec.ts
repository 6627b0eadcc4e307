import type { CardCode } from '@studio/cards';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { BlackjackLuxAdapter } from '../../src/games/blackjack-lux/blackjack-lux.adapter';
import { EuropeanPracticeAdapter } from '../../src/games/european-practice/european-practice.adapter';
import type { GameAdapter } from '../../src/games/game-adapter';
import { defaultLimits } from '../../src/games/game-registry';
import { postJson, startTestStudio, waitFor } from '../support/studio-harness';
import {
  normalise,
  Query,
  replayLux,
  replayPractice,
  report,
  storedRound,
} from '../support/lux-practice-replay';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const PLATFORM_KEY = 'test-platform-key';

const TABLES: TableDefinition[] = [
  {
    id: 'lux-e2e',
    name: 'Blackjack Lux e2e',
    game: 'blackjack-lux',
    currency: 'EUR',
    bettingWindowMs: 6_000,
    decisionWindowMs: 2_000,
    roundIntervalMs: 300,
    // Only the virtual dealer deals (the shoe's own interval is an hour), over a real socat pty.
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: {
        seed: 44,
        intervalMs: 3_600_000,
        misreadRate: 0.1,
        heartbeatIntervalMs: 60_000,
      },
    },
  } as unknown as TableDefinition,
  {
    id: 'practice-e2e',
    name: 'European practice e2e',
    game: 'european-blackjack-practice',
    currency: 'XPT',
    bettingWindowMs: 2_000,
    decisionWindowMs: 1_500,
    roundIntervalMs: 300,
    rules: {
      bots: [
        { seat: 1, level: 'hard' },
        { seat: 2, level: 'easy' },
        { seat: 6, level: 'normal' },
      ],
    },
  } as unknown as TableDefinition,
];

describe('round orchestrator: Blackjack Lux and the European practice table', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let supervisorToken: string;

  const q: Query = (sql, params = []) => studio.database.dataSource.query(sql, params);

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(studio.url, path, body, headers);

  const platform = { 'x-platform-key': PLATFORM_KEY };

  async function tableView(tableId: string) {
    const response = await fetch(`${studio.url}/tables/${tableId}`, {
      headers: { authorization: `Bearer ${supervisorToken}` },
    });
    return (await response.json()) as {
      round: {
        id: string;
        number: number;
        phase: string;
        bettingOpen: boolean;
        view: { turn: number | null; seats: Array<{ seat: number; playerId: string | null }> };
      } | null;
    };
  }

  const waitForBettingRound = (tableId: string) =>
    waitFor(
      `${tableId} to open betting`,
      async () => {
        const view = await tableView(tableId);
        return view.round?.bettingOpen ? view.round : undefined;
      },
      90_000,
    );

  async function roundStatus(roundId: string): Promise<string | undefined> {
    const [row] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [roundId]);
    return row?.status;
  }

  beforeAll(async () => {
    db = await createTestDatabase('orchestrator_lux_practice');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: {
        DEMO_USERS: 'true',
        PLATFORM_API_KEYS: PLATFORM_KEY,
        VIRTUAL_DEALER_PACE_MS: '40',
        TABLE_LEASE_TTL_MS: '5000',
      },
    });
    const login = await post(
      '/auth/login',
      { username: 'supervisor', password: 'supervisor-demo' },
      {},
    );
    supervisorToken = login.body.token as string;
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  it('plays a Lux round with seat bets, a bet behind, pair bets and decisions, matching a replay', async () => {
    const round = await waitForBettingRound('lux-e2e');
    const bets = [
      { playerId: 'alice', betType: 'main', spot: '1', amount: 1_000, sideBets: { pairs: 100 } },
      { playerId: 'bob', betType: 'main', spot: '3', amount: 2_001 },
      { playerId: 'carol', betType: 'bet-behind', spot: '1', amount: 500 },
      { playerId: 'dan', betType: 'pairs', spot: '3', amount: 100 },
    ];
    for (const [i, bet] of bets.entries()) {
      const { status, body } = await post(
        '/platform/tables/lux-e2e/bets',
        { ...bet, commandId: `lux-${i}`, currency: 'EUR' },
        platform,
      );
      expect({ status, body }).toMatchObject({ status: 200, body: { accepted: true } });
    }
    const refused = await post(
      '/platform/tables/lux-e2e/bets',
      { playerId: 'erin', betType: 'main', spot: '1', amount: 1_000 },
      platform,
    );
    expect(refused.body).toMatchObject({ error: 'seat-taken' });
    // Bet-behind choices and a pre-decision, before any card.
    for (const [playerId, action] of [
      ['carol', 'follow-double'],
      ['carol', 'follow-split'],
      ['bob', 'pre:stand'],
    ]) {
      const { body } = await post(
        '/platform/tables/lux-e2e/decisions',
        { playerId, action },
        platform,
      );
      expect(body).toMatchObject({ accepted: true });
    }
    // Alice asks for insurance if offered and doubles on her turn (stands if she cannot).
    let insured = false;
    let aliceActed = false;
    await waitFor(
      'the Lux round to complete',
      async () => {
        if ((await roundStatus(round.id)) === 'completed') return true;
        const view = await tableView('lux-e2e');
        if (view.round?.id !== round.id) return undefined;
        if (view.round.phase === 'insurance' && !insured) {
          const r = await post(
            '/platform/tables/lux-e2e/decisions',
            { playerId: 'alice', action: 'insurance', seat: '1' },
            platform,
          );
          insured = r.body.accepted === true;
        }
        if (view.round.phase === 'playing' && view.round.view.turn === 1 && !aliceActed) {
          for (const action of ['double', 'stand']) {
            const r = await post(
              '/platform/tables/lux-e2e/decisions',
              { playerId: 'alice', action, seat: '1' },
              platform,
            );
            if (r.body.accepted === true) {
              aliceActed = true;
              break;
            }
          }
        }
        return undefined;
      },
      120_000,
      100,
    );

    const stored = await storedRound(q, round.id);
    expect(stored.bets.map((b) => `${b.player_id}/${b.spot}/${b.bet_type}`)).toEqual(
      expect.arrayContaining([
        'alice/1/main',
        'alice/1/pairs',
        'bob/3/main',
        'carol/1/bet-behind',
        'dan/3/pairs',
      ]),
    );
    expect(stored.settlements.map((s) => `${s.playerId}/${s.spot}/${s.betType}`)).toEqual(
      expect.arrayContaining([
        'alice/1/main',
        'alice/1/pairs',
        'bob/3/main',
        'carol/1/bet-behind',
        'dan/3/pairs',
      ]),
    );
    const replayed = replayLux(
      new BlackjackLuxAdapter({
        bettingWindowMs: 6_000,
        decisionWindowMs: 2_000,
        limits: { ...defaultLimits('blackjack-lux') },
      }) as GameAdapter,
      round.id,
      stored,
    );
    expect(stored.settlements.map(normalise)).toEqual(replayed.map(normalise));
    report('Lux', stored);
    // Every bet row is settled, insurance included.
    const [{ open }] = await q<{ open: number }>(
      `SELECT count(*)::int AS open FROM bets WHERE round_id = $1 AND status = 'accepted'`,
      [round.id],
    );
    expect(open).toBe(0);
    // The hole card: stored face down, revealed at the end, in no public event before that.
    const [hole] = await q<{ card: string; revealed_at: Date | null; face_down: boolean }>(
      `SELECT card, revealed_at, face_down FROM round_cards WHERE round_id = $1 AND slot = 'dealer-hole' AND corrected_by_id IS NULL`,
      [round.id],
    );
    expect(hole).toMatchObject({ face_down: true, revealed_at: expect.any(Date) });
    const events = await q<{ type: string; visibility: string; payload: Record<string, unknown> }>(
      `SELECT type, visibility, payload FROM round_events WHERE round_id = $1 ORDER BY event_no`,
      [round.id],
    );
    const reveal = events.findIndex((e) => e.type === 'HoleCardRevealed');
    expect(reveal).toBeGreaterThan(0);
    expect(events[reveal].payload.card).toBe(hole.card);
    const publicBefore = events.slice(0, reveal).filter((e) => e.visibility === 'public');
    expect(publicBefore.some((e) => e.type === 'CardDealtFaceDown')).toBe(true);
    expect(
      publicBefore.filter((e) => e.type.startsWith('Card') && e.payload.slot === 'dealer-hole'),
    ).toEqual([
      expect.objectContaining({ type: 'CardDealtFaceDown', payload: { slot: 'dealer-hole' } }),
    ]);
    expect(stored.decisions.filter((d) => d.player_id === 'carol').map((d) => d.action)).toEqual([
      'follow-double',
      'follow-split',
    ]);
  });

  it('plays practice rounds: bots alone, then with a human; dealt from the recorded shoe, matching a replay', async () => {
    const adapter = new EuropeanPracticeAdapter({
      bettingWindowMs: 2_000,
      decisionWindowMs: 1_500,
      rules: TABLES[1].rules as Record<string, unknown>,
    });
    // A round the bots play on their own.
    const botRound = await waitForBettingRound('practice-e2e');
    await waitFor(
      'the bots-only round to complete',
      async () => (await roundStatus(botRound.id)) === 'completed',
      60_000,
    );
    const botsOnly = await storedRound(q, botRound.id);
    expect(botsOnly.settlements.map((s) => s.playerId)).toEqual(['bot:1', 'bot:2', 'bot:6']);
    const botReplay = replayPractice(adapter, botRound.id, botsOnly);
    expect(botsOnly.settlements.map(normalise)).toEqual(botReplay.settlements.map(normalise));
    expect(botReplay.decisions).toEqual(botsOnly.decisions);

    // A round with a human on seat 4 who hits once, then lets the timer play.
    const round = await waitForBettingRound('practice-e2e');
    const bet = await post(
      '/platform/tables/practice-e2e/bets',
      {
        commandId: 'hana-1',
        playerId: 'hana',
        betType: 'main',
        spot: '4',
        amount: 200,
        currency: 'XPT',
      },
      platform,
    );
    expect(bet.body).toMatchObject({ accepted: true });
    let hit = false;
    await waitFor(
      'the practice round with a human to complete',
      async () => {
        if ((await roundStatus(round.id)) === 'completed') return true;
        const view = await tableView('practice-e2e');
        if (!hit && view.round?.id === round.id && view.round.view.turn === 4) {
          const r = await post(
            '/platform/tables/practice-e2e/decisions',
            { playerId: 'hana', action: 'hit' },
            platform,
          );
          hit = r.body.accepted === true;
        }
        return undefined;
      },
      60_000,
      100,
    );
    const stored = await storedRound(q, round.id);
    expect(stored.settlements.map((s) => s.playerId)).toEqual(['bot:1', 'bot:2', 'hana', 'bot:6']);
    const hana = stored.settlements.find((s) => s.playerId === 'hana')!;
    expect(Number(hana.stake)).toBeGreaterThanOrEqual(200);
    const replay = replayPractice(adapter, round.id, stored);
    expect(stored.settlements.map(normalise)).toEqual(replay.settlements.map(normalise));
    expect(replay.decisions).toEqual(stored.decisions);
    report('Practice (bots only)', botsOnly);
    report('Practice (with hana)', stored);

    // The round's cards are a run of the recorded (restricted) shuffled order of their shoe.
    const [shuffled] = await q<{ payload: { shoeId: string; order: CardCode[] } }>(
      `SELECT e.payload FROM round_events e JOIN rounds r ON r.shoe_id = (e.payload->>'shoeId')::uuid
        WHERE r.id = $1 AND e.type = 'VirtualShoeShuffled' AND e.visibility = 'restricted'`,
      [round.id],
    );
    const dealt = stored.cards.map((c) => c.card);
    const order = shuffled.payload.order;
    const at = order.findIndex((_, i) => dealt.every((c, k) => order[i + k] === c));
    expect(at).toBeGreaterThanOrEqual(0);
    // Nothing restricted was published: the shuffled order never went out as a public event.
    const [{ leaked }] = await q<{ leaked: number }>(
      `SELECT count(*)::int AS leaked FROM round_events WHERE type = 'VirtualShoeShuffled' AND visibility = 'public'`,
    );
    expect(leaked).toBe(0);
    // One public RoundStarted per round: the table's, not a second one from the engine.
    for (const id of [botRound.id, round.id]) {
      const started = await q<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM round_events WHERE round_id = $1 AND type = 'RoundStarted' AND visibility = 'public'`,
        [id],
      );
      expect(started).toHaveLength(1);
      expect(started[0].payload).toMatchObject({ game: 'european-blackjack-practice' });
    }
  });
});
