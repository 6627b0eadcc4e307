import { CardCode } from '@studio/cards';
import type { RunningStudio } from '../../src/bootstrap';
import type { SettlementRecord } from '../../src/games/game-adapter';
import { VerifyRoundReplay } from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import { ORCHESTRATOR_TABLES as TABLES } from '../support/orchestrator-tables';
import { postJson, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const PLATFORM_KEY = 'test-platform-key';

/**
 * The round orchestrator end to end on the real PostgreSQL: virtual shoes write frames into real
 * pseudo-terminals, the service reads them, plays rounds by the rules, and every hand lands in the
 * database. Stored settlements are checked by replaying the stored cards and bets through the
 * pure engines.
 */
describe('round orchestrator', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let supervisorToken: string;
  let dealerToken: string;

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);

  const login = (username: string, password: string) => signIn(studio.url, username, password);

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(studio.url, path, body, headers);

  const platform = { 'x-platform-key': PLATFORM_KEY };
  const asSupervisor = () => ({ authorization: `Bearer ${supervisorToken}` });

  async function tableView(tableId: string) {
    const response = await fetch(`${studio.url}/tables/${tableId}`, { headers: asSupervisor() });
    return (await response.json()) as {
      round: { id: string; number: number; phase: string; bettingOpen: boolean } | null;
      paused: { kind: string; reason: string } | null;
      expectedCard: { slot: string } | null;
      faceDownCards: Record<string, string>;
    };
  }

  async function waitForBettingRound(tableId: string) {
    return waitFor(
      `${tableId} to open betting`,
      async () => {
        const view = await tableView(tableId);
        return view.round?.bettingOpen ? view.round : undefined;
      },
      60_000,
    );
  }

  async function roundStatus(roundId: string): Promise<string | undefined> {
    const [row] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [roundId]);
    return row?.status;
  }

  beforeAll(async () => {
    db = await createTestDatabase('orchestrator');
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
    supervisorToken = await login('supervisor', 'supervisor-demo');
    dealerToken = await login('dealer', 'dealer-demo');
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  it('plays full Pok Deng rounds from shoe start to settlement, with rescans, matching the engine', async () => {
    const round = await waitForBettingRound('pokdeng-e2e');
    const bets = [
      { playerId: 'alice', betType: 'player', spot: '1', amount: 1_000 },
      { playerId: 'alice', betType: 'pair', spot: '1', amount: 1_000 },
      { playerId: 'bob', betType: 'player', spot: '2', amount: 5_000 },
      { playerId: 'carol', betType: 'player', spot: '5', amount: 2_000 },
    ];
    for (const [i, bet] of bets.entries()) {
      const { status, body } = await post(
        '/platform/tables/pokdeng-e2e/bets',
        { ...bet, commandId: `pd-${i}`, currency: 'THB' },
        platform,
      );
      expect({ status, body }).toMatchObject({ status: 200, body: { accepted: true } });
    }
    await waitFor(
      'the Pok Deng round to complete',
      async () => (await roundStatus(round.id)) === 'completed',
      60_000,
    );

    const stored = await q<SettlementRecord & { stake: string; returned: string; net: string }>(
      `SELECT s.bet_id AS "betId", s.player_id AS "playerId", s.bet_type AS "betType", s.spot,
              s.stake, s.returned, s.net, s.outcome, s.rounded_down AS "roundedDown"
         FROM settlements s WHERE s.round_id = $1 ORDER BY s.id`,
      [round.id],
    );
    expect(stored).toHaveLength(4);
    // The auditors' replay verification recomputes the round from its stored records.
    expect(await new VerifyRoundReplay(q).round(round.id)).toMatchObject({
      verdict: 'match',
      settlements: 4,
    });
    // Every bet settled; the shoe's burn and the round's face-down cards are all on record.
    const [{ open }] = await q<{ open: number }>(
      `SELECT count(*)::int AS open FROM bets WHERE round_id = $1 AND status = 'accepted'`,
      [round.id],
    );
    expect(open).toBe(0);
    const cards = await q<{ slot: string; revealed_at: Date | null }>(
      `SELECT slot, revealed_at FROM round_cards WHERE round_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
      [round.id],
    );
    expect(cards.map((c) => c.slot)).toEqual([
      'burn',
      ...['player-1', 'player-2', 'player-3', 'player-4', 'player-5', 'banker'].map(
        (h) => `${h}/1`,
      ),
      ...['player-1', 'player-2', 'player-3', 'player-4', 'player-5', 'banker'].map(
        (h) => `${h}/2`,
      ),
    ]);
    expect(cards.filter((c) => c.slot !== 'burn').every((c) => c.revealed_at !== null)).toBe(true);
    // Every hand is on record with its cards, its score and its result against the banker.
    const hands = await q<{ hand: string; cards: string[]; total: string; result: string | null }>(
      `SELECT hand, cards, total, result FROM round_hands WHERE round_id = $1 ORDER BY id`,
      [round.id],
    );
    expect(hands.map((h) => h.hand)).toEqual([
      'player-1',
      'player-2',
      'player-3',
      'player-4',
      'player-5',
      'banker',
    ]);
    for (const h of hands) {
      expect(h.cards).toHaveLength(2);
      expect(h.total).toMatch(/^\d(\.\d)?$/);
      expect(
        h.result === null ? h.hand === 'banker' : ['win', 'loss', 'tie'].includes(h.result),
      ).toBe(true);
    }
    expect(cards.find((c) => c.slot === 'burn')?.revealed_at).toBeNull();
    // With a 20% misread rate over 13+ cards, rescans happened and the round still completed.
    const [{ rescans }] = await q<{ rescans: number }>(
      `SELECT count(*)::int AS rescans FROM round_events WHERE table_id = 'pokdeng-e2e' AND type = 'RescanRequired'`,
    );
    expect(rescans).toBeGreaterThan(0);
    // A repeated command id gets the first answer and changes nothing.
    const repeat = await post(
      '/platform/tables/pokdeng-e2e/bets',
      { ...bets[0], commandId: 'pd-0', currency: 'THB' },
      platform,
    );
    expect(repeat.body).toMatchObject({ accepted: true, duplicate: true });
    const [{ n }] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM bets WHERE command_id = 'pd-0'`,
    );
    expect(n).toBe(1);
  });

  it('plays a full Infinite Blackjack round with decisions and auto-play, matching the engine', async () => {
    const round = await waitForBettingRound('ibj-e2e');
    const players = ['p1', 'p2', 'p3', 'p4'];
    for (const [i, playerId] of players.entries()) {
      const { body } = await post(
        '/platform/tables/ibj-e2e/bets',
        {
          commandId: `ibj-${i}`,
          playerId,
          betType: 'main',
          amount: 1_000 * (i + 1),
          sideBets: i % 2 === 0 ? { pairs: 100, 'lucky-trio': 100 } : {},
        },
        platform,
      );
      expect(body).toMatchObject({ accepted: true });
    }
    // p1 always stands, p2 hits once; p3 and p4 send nothing and are auto-played.
    let hit = false;
    await waitFor(
      'the Infinite Blackjack round to complete',
      async () => {
        const status = await roundStatus(round.id);
        if (status === 'completed') return true;
        const view = await tableView('ibj-e2e');
        if (view.round?.phase === 'deciding') {
          await post(
            '/platform/tables/ibj-e2e/decisions',
            { playerId: 'p1', action: 'stand' },
            platform,
          );
          if (!hit) {
            const r = await post(
              '/platform/tables/ibj-e2e/decisions',
              { playerId: 'p2', action: 'hit' },
              platform,
            );
            hit = r.body.accepted === true;
          }
        }
        return undefined;
      },
      90_000,
      200,
    );
    const stored = await q<SettlementRecord & { stake: string; returned: string; net: string }>(
      `SELECT bet_id AS "betId", player_id AS "playerId", bet_type AS "betType", spot, stake, returned, net,
              outcome, rounded_down AS "roundedDown"
         FROM settlements WHERE round_id = $1 ORDER BY id`,
      [round.id],
    );
    expect(stored.filter((s) => s.betType === 'main')).toHaveLength(4);
    expect(await new VerifyRoundReplay(q).round(round.id)).toMatchObject({
      verdict: 'match',
      settlements: stored.length,
    });
    const ibjHands = await q<{ hand: string; cards: string[]; total: string }>(
      `SELECT hand, cards, total FROM round_hands WHERE round_id = $1 ORDER BY id`,
      [round.id],
    );
    expect(ibjHands[0].hand).toBe('dealer');
    expect(ibjHands[0].cards.length).toBeGreaterThanOrEqual(2);
    expect(ibjHands.filter((h) => h.hand.startsWith('node-')).length).toBeGreaterThanOrEqual(1);
    // The hole card was stored face down and revealed only at the end.
    const [hole] = await q<{ revealed_at: Date | null }>(
      `SELECT revealed_at FROM round_cards WHERE round_id = $1 AND slot = 'dealer-hole'`,
      [round.id],
    );
    expect(hole.revealed_at).not.toBeNull();
  });

  it('escalates a card that keeps failing to a supervisor, who resumes; then pause, correct, void with refunds', async () => {
    // At a 60% misread rate and 2 attempts allowed, a card is escalated within a few cards.
    const escalated = await waitFor(
      'a rescan escalation',
      async () => {
        const view = await tableView('pokdeng-sup');
        return view.paused?.kind === 'escalation' ? view : undefined;
      },
      60_000,
    );
    // The slot stays open (the same card must be scanned again once a supervisor resumes).
    expect(escalated.paused?.reason).toMatch(/not recognised after 2 attempts/);
    expect(escalated.expectedCard).not.toBeNull();
    const [alert] = await q<{ payload: { kind: string; failedAttempts: number } }>(
      `SELECT payload FROM round_events WHERE table_id = 'pokdeng-sup' AND type = 'SupervisorAlert' ORDER BY event_no LIMIT 1`,
    );
    expect(alert.payload).toMatchObject({ kind: 'rescan-limit', failedAttempts: 2 });
    // A dealer cannot resume; a supervisor can.
    const byDealer = await post(
      '/tables/pokdeng-sup/resume',
      {},
      { authorization: `Bearer ${dealerToken}` },
    );
    expect(byDealer).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await post('/tables/pokdeng-sup/resume', {}, asSupervisor())).body).toMatchObject({
      accepted: true,
    });

    /** Waits for a condition, resuming the table whenever a misread escalates meanwhile. */
    const untilResuming = <T>(
      what: string,
      probe: (view: Awaited<ReturnType<typeof tableView>>) => T | undefined,
    ) =>
      waitFor(
        what,
        async () => {
          const view = await tableView('pokdeng-sup');
          if (view.paused?.kind === 'escalation') {
            await post('/tables/pokdeng-sup/resume', {}, asSupervisor());
            return undefined;
          }
          return probe(view);
        },
        90_000,
      );

    const round = await untilResuming('betting to open', (view) =>
      view.round?.bettingOpen ? view.round : undefined,
    );
    for (const [i, spot] of ['1', '2', '3'].entries()) {
      const bet = { playerId: `sp${i}`, betType: 'player', spot, amount: 1_000 + i };
      const place = (attempt: number) =>
        post(
          '/platform/tables/pokdeng-sup/bets',
          { ...bet, commandId: `sup-${i}-${attempt}` },
          platform,
        );
      let attempt = 0;
      let { body } = await place(attempt);
      // A misread during betting escalates too (60% misreads): resumed, then bet again, for as
      // long as it takes (on a loaded machine an escalation can beat the bet several times). A new
      // command each time, as a platform does after a refusal: a repeated command id gets the
      // command's first answer again (idempotence), refusals included.
      const giveUpAt = Date.now() + 60_000;
      while (body.error === 'table-paused' && Date.now() < giveUpAt) {
        await post('/tables/pokdeng-sup/resume', {}, asSupervisor());
        attempt += 1;
        ({ body } = await place(attempt));
      }
      expect(body).toMatchObject({ accepted: true });
    }
    const faceDown = await untilResuming('a face-down card on Player 1', (view) =>
      view.faceDownCards['player-1/1'] ? view : undefined,
    );
    let paused = await post(
      '/tables/pokdeng-sup/pause',
      { reason: 'Card shown by mistake' },
      asSupervisor(),
    );
    if (paused.body.error === 'already-paused') {
      // A misread escalated in between: take over that pause with our own.
      await post('/tables/pokdeng-sup/resume', {}, asSupervisor());
      paused = await post(
        '/tables/pokdeng-sup/pause',
        { reason: 'Card shown by mistake' },
        asSupervisor(),
      );
    }
    expect(paused.body).toMatchObject({ accepted: true });
    const pausedAgain = await post(
      '/tables/pokdeng-sup/pause',
      { reason: 'again' },
      asSupervisor(),
    );
    expect(pausedAgain).toMatchObject({ status: 409, body: { error: 'already-paused' } });
    const original = faceDown.faceDownCards['player-1/1'] as CardCode;
    const replacement = original === 'AS' ? 'KS' : 'AS';
    const corrected = await post(
      '/tables/pokdeng-sup/correct-card',
      { slot: 'player-1/1', card: replacement, reason: 'Reader misread the suit' },
      asSupervisor(),
    );
    expect(corrected.body).toMatchObject({ accepted: true });
    const cardRows = await q<{
      card: string;
      corrected_by_id: string | null;
      correction_reason: string | null;
    }>(
      `SELECT card, corrected_by_id, correction_reason FROM round_cards WHERE round_id = $1 AND slot = 'player-1/1' ORDER BY id`,
      [round.id],
    );
    expect(cardRows).toEqual([
      expect.objectContaining({ card: original, corrected_by_id: expect.anything() }),
      expect.objectContaining({
        card: replacement,
        corrected_by_id: null,
        correction_reason: 'Reader misread the suit',
      }),
    ]);
    expect((await post('/tables/pokdeng-sup/void', {}, asSupervisor())).body).toMatchObject({
      error: 'reason-required',
    });
    const voided = await post(
      '/tables/pokdeng-sup/void',
      { reason: 'Card shown by mistake' },
      asSupervisor(),
    );
    expect(voided.body).toMatchObject({ accepted: true });
    expect(await roundStatus(round.id)).toBe('voided');
    const refunds = await q<{ stake: string; returned: string; net: string; outcome: string }>(
      `SELECT stake, returned, net, outcome FROM settlements WHERE round_id = $1 ORDER BY id`,
      [round.id],
    );
    expect(
      refunds.map((r) => [Number(r.stake), Number(r.returned), Number(r.net), r.outcome]),
    ).toEqual([
      [2_000, 2_000, 0, 'void-refund'],
      [2_002, 2_002, 0, 'void-refund'],
      [2_004, 2_004, 0, 'void-refund'],
    ]);
    const [{ refunded }] = await q<{ refunded: number }>(
      `SELECT count(*)::int AS refunded FROM bets WHERE round_id = $1 AND status = 'refunded'`,
      [round.id],
    );
    expect(refunded).toBe(3);
    const actions = await q<{ action: string; actor_name: string; reason: string | null }>(
      `SELECT action, actor_name, reason FROM supervisor_actions WHERE table_id = 'pokdeng-sup' ORDER BY id`,
    );
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['resume', 'pause', 'correct-card', 'void']),
    );
    expect(actions.slice(-3).map((a) => [a.action, a.reason])).toEqual([
      ['pause', 'Card shown by mistake'],
      ['correct-card', 'Reader misread the suit'],
      ['void', 'Card shown by mistake'],
    ]);
    expect(actions.every((a) => a.actor_name === 'supervisor')).toBe(true);
  });

  it('refuses bad commands with a specific reason', async () => {
    const cases: Array<[string, unknown, string]> = [
      [
        '/platform/tables/no-such-table/bets',
        { playerId: 'x', betType: 'player', spot: '1', amount: 1000 },
        'unknown-table',
      ],
      [
        '/platform/tables/pokdeng-e2e/bets',
        { playerId: 'x', betType: 'player', spot: '1', amount: 1000, currency: 'EUR' },
        'wrong-currency',
      ],
      [
        '/platform/tables/pokdeng-e2e/bets',
        { playerId: 'x', betType: 'player', spot: '1', amount: 10.5 },
        'invalid-amount',
      ],
      ['/platform/tables/ibj-e2e/decisions', { playerId: 'nobody', action: 'fly' }, ''],
    ];
    for (const [path, body, code] of cases) {
      const result = await post(path, body, platform);
      expect(result.status).toBeGreaterThanOrEqual(400);
      if (code) expect(result.body.error).toBe(code);
      expect(typeof result.body.message).toBe('string');
    }
    expect((await post('/platform/tables/pokdeng-e2e/bets', {}, {})).status).toBe(401);
  });
});
