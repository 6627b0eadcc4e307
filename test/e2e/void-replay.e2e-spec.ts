import { waitFor } from '../support/studio-harness';
import { TableRound, useVoidReplayStudio, voidTable } from '../support/void-replay-studio';

jest.setTimeout(120_000);

const IBJ = 'infinite-blackjack-now';
const LUX = 'blackjack-lux-now';
const POK = 'pok-deng-now';
const PRACTICE = 'european-blackjack-practice-now';

/**
 * The auditor's replay of real rounds voided at once by a supervisor at different points of
 * play: in betting with bets placed, with a face-down card still face down (a dealer's hole card,
 * Pok Deng hands not yet revealed), and Infinite Blackjack's in a decision window after manual
 * decisions and an automatic play. Each is honest history: its rows must agree with its
 * hash-chained events, so every round replays to a match (a mismatch would tell an auditor that
 * an insider edited it). void-approval-replay.e2e-spec.ts does the same for approved voids.
 */
describe('auditor replay of rounds voided at once', () => {
  const studio = useVoidReplayStudio('void_replay', [
    voidTable('infinite-blackjack', 'now', 71, 2_000),
    voidTable('blackjack-lux', 'now', 72, 2_000),
    voidTable('pok-deng', 'now', 73),
    voidTable('european-blackjack-practice', 'now', 74),
  ]);
  const { q, bet, decide, closeBetting, voidRound, ended, replay, table, bettingRound } = studio;
  const voided: string[] = [];

  /** Voids the round, waits for its end and expects its replay to match. */
  async function voidAndReplay(tableId: string, roundId: string, reason: string) {
    await voidRound(tableId, roundId, reason);
    expect(await ended(roundId)).toBe('voided');
    voided.push(roundId);
    expect(await replay(roundId)).toMatchObject({ roundId, verdict: 'match' });
  }

  /**
   * Plays rounds of the table (bets, betting closed by the test) until `ready` says where to void
   * one: `ready` sees the round as the table shows it and may act; a round that ends first (the
   * cards did not lead there) is left completed and the next one tried.
   */
  async function voidWhen(
    tableId: string,
    bets: object[],
    ready: (round: TableRound) => Promise<boolean>,
    reason: string,
  ): Promise<string> {
    const tried: string[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const round = await bettingRound(tableId, tried);
      tried.push(round.id);
      await bet(tableId, bets);
      await closeBetting(tableId);
      const reached = await waitFor(
        `${tableId} round ${round.id} to reach the void or end`,
        async () => {
          const now = await table(tableId);
          if (now?.id !== round.id) return 'ended';
          return (await ready(now)) ? 'ready' : undefined;
        },
        30_000,
        40,
      );
      if (reached === 'ready') {
        await voidAndReplay(tableId, round.id, reason);
        return round.id;
      }
      expect(await ended(round.id)).toBe('completed');
    }
    throw new Error(`no round of ${tableId} reached the point to void it`);
  }

  /** The round's cards as stored (corrected ones aside). */
  const cardsOf = (roundId: string) =>
    q<{ slot: string; face_down: boolean; revealed_at: Date | null }>(
      `SELECT slot, face_down, revealed_at FROM round_cards
        WHERE round_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
      [roundId],
    );

  it('replays a round of each game voided in betting, its bets placed and refunded', async () => {
    const bets: Array<[string, object[]]> = [
      [IBJ, ['p1', 'p2'].map((playerId) => ({ playerId, betType: 'main', amount: 1_000 }))],
      [
        LUX,
        [
          { playerId: 'lena', betType: 'main', spot: '1', amount: 1_000, currency: 'EUR' },
          { playerId: 'mo', betType: 'bet-behind', spot: '1', amount: 500, currency: 'EUR' },
        ],
      ],
      [
        POK,
        [
          { playerId: 'alice', betType: 'player', spot: '1', amount: 1_000, currency: 'THB' },
          { playerId: 'alice', betType: 'pair', spot: '1', amount: 1_000, currency: 'THB' },
          { playerId: 'bob', betType: 'player', spot: '2', amount: 2_000, currency: 'THB' },
        ],
      ],
      [PRACTICE, [{ playerId: 'hana', betType: 'main', spot: '3', amount: 200, currency: 'XPT' }]],
    ];
    for (const [tableId, tableBets] of bets) {
      const round = await bettingRound(tableId);
      const ids = await bet(tableId, tableBets);
      // Bob takes his Pok Deng bet back before the void: cancelled, not refunded.
      if (tableId === POK) await studio.cancel(POK, ids[2], 'bob');
      await voidAndReplay(tableId, round.id, `camera failure at ${tableId}`);
      const refunds = await q<{ outcome: string }>(
        `SELECT outcome FROM settlements WHERE round_id = $1`,
        [round.id],
      );
      expect(refunds.length).toBeGreaterThanOrEqual(tableBets.length);
      expect(refunds.map((r) => r.outcome).sort()).toEqual(
        tableId === POK
          ? ['cancelled', 'void-refund', 'void-refund']
          : refunds.map(() => 'void-refund'),
      );
    }
  });

  it('replays a Pok Deng round voided while its cards are dealt, no hand revealed', async () => {
    const roundId = await voidWhen(
      POK,
      [
        { playerId: 'alice', betType: 'player', spot: '1', amount: 1_000, currency: 'THB' },
        { playerId: 'bob', betType: 'player', spot: '3', amount: 1_000, currency: 'THB' },
      ],
      async (round) =>
        (await cardsOf(round.id)).length >= 3 ||
        // Every card dealt already: too late to void with the hands unrevealed.
        (round.phase !== 'betting-closed' && round.phase !== 'betting'),
      'shoe jammed mid-deal',
    );
    const cards = await cardsOf(roundId);
    expect(cards.length).toBeGreaterThanOrEqual(3);
    expect(cards.length).toBeLessThan(12);
    expect(cards.every((c) => c.face_down && c.revealed_at === null)).toBe(true);
  });

  it("replays a Lux round voided on a seat's turn, the hole card face down, after an automatic play", async () => {
    const roundId = await voidWhen(
      LUX,
      [
        { playerId: 'lena', betType: 'main', spot: '1', amount: 1_000, currency: 'EUR' },
        { playerId: 'bo', betType: 'main', spot: '2', amount: 1_000, currency: 'EUR' },
        { playerId: 'cy', betType: 'bet-behind', spot: '2', amount: 500, currency: 'EUR' },
      ],
      async (round) => {
        if (round.phase !== 'playing' || round.view.turn !== 2) return false;
        // Lena said nothing on her turn (played automatically); cy chooses for her bet behind.
        const r = await decide(LUX, { playerId: 'cy', action: 'follow-double' });
        return r.body.accepted === true;
      },
      'dealer exposed a card',
    );
    const hole = (await cardsOf(roundId)).find((c) => c.slot === 'dealer-hole');
    expect(hole).toMatchObject({ face_down: true, revealed_at: null });
    const decisions = await q<{ player_id: string; automatic: boolean }>(
      `SELECT player_id, automatic FROM decisions WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
    expect(decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ player_id: 'cy', automatic: false }),
        expect.objectContaining({ player_id: 'lena', automatic: true }),
      ]),
    );
  });

  it('replays an Infinite Blackjack round voided in its second decision window, after manual and automatic decisions', async () => {
    let first: number | undefined;
    const roundId = await voidWhen(
      IBJ,
      ['p1', 'p2', 'p3', 'p4'].map((playerId) => ({ playerId, betType: 'main', amount: 1_000 })),
      async (round) => {
        const window = round.view.window;
        if (round.phase !== 'deciding' || window === undefined) return false;
        if (first === undefined || first > window) {
          // Window one: p1 and p4 hit, p3 stands, p2 says nothing (played when the window closes).
          first = window;
          for (const [playerId, action] of [
            ['p1', 'hit'],
            ['p4', 'hit'],
            ['p3', 'stand'],
          ]) {
            expect((await decide(IBJ, { playerId, action })).body).toMatchObject({
              accepted: true,
            });
          }
          return false;
        }
        if (window === first) return false;
        // Window two: p1 stands; p4 has not answered, so the window stays open for the void.
        const r = await decide(IBJ, { playerId: 'p1', action: 'stand' });
        return r.body.accepted === true;
      },
      'studio power failure',
    );
    const hole = (await cardsOf(roundId)).find((c) => c.slot === 'dealer-hole');
    expect(hole).toMatchObject({ face_down: true, revealed_at: null });
    const decisions = await q<{ player_id: string; action: string }>(
      `SELECT player_id, action FROM decisions WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
    // p2, silent, was played automatically when window one closed (no decisions row of its own).
    const [closed] = await q<{ payload: { autoPlayed: number } }>(
      `SELECT payload FROM round_events WHERE round_id = $1 AND type = 'DecisionWindowClosed'`,
      [roundId],
    );
    expect(closed.payload.autoPlayed).toBe(1);
    expect(decisions.map((d) => `${d.player_id} ${d.action}`)).toEqual([
      'p1 hit',
      'p4 hit',
      'p3 stand',
      'p1 stand',
    ]);
  });

  it("replays a practice round voided on the player's turn, after the bot's automatic play", async () => {
    const roundId = await voidWhen(
      PRACTICE,
      [{ playerId: 'hana', betType: 'main', spot: '3', amount: 200, currency: 'XPT' }],
      async (round) => round.phase === 'playing' && round.view.turn === 3,
      'dealer misdealt',
    );
    const automatic = await q<{ player_id: string }>(
      `SELECT player_id FROM decisions WHERE round_id = $1 AND automatic`,
      [roundId],
    );
    expect(automatic.length).toBeGreaterThan(0);
    expect((await cardsOf(roundId)).some((c) => c.face_down)).toBe(true);
  });

  it('replays every round the tables played to a match', async () => {
    const rounds = await q<{ id: string; status: string }>(
      `SELECT id, status FROM rounds WHERE status IN ('voided', 'completed') ORDER BY started_at`,
    );
    expect(rounds.filter((r) => r.status === 'voided').map((r) => r.id)).toEqual(
      expect.arrayContaining(voided),
    );
    expect(voided).toHaveLength(8);
    const verdicts = await Promise.all(rounds.map((r) => replay(r.id)));
    expect(verdicts.filter((v) => v.verdict !== 'match')).toEqual([]);
  });
});
