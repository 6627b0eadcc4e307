import { waitFor } from '../support/studio-harness';
import { useVoidReplayStudio, voidTable } from '../support/void-replay-studio';

jest.setTimeout(120_000);

const POK = 'pok-deng-approval';
const IBJ = 'infinite-blackjack-approval';

/**
 * The auditor's replay of rounds whose void needed a second supervisor (VOID_REQUIRES_APPROVAL):
 * a request that lapsed with its round before another was approved, and a round that held two
 * requests when one was approved (the other lapsing as the round ended), with cards face down and
 * decisions made. Honest history: every round replays to a match (void-replay.e2e-spec.ts does
 * the same for voids applied at once).
 */
describe('auditor replay of voids approved by a second supervisor', () => {
  const studio = useVoidReplayStudio(
    'void_approval_replay',
    [voidTable('pok-deng', 'approval', 81), voidTable('infinite-blackjack', 'approval', 82)],
    { VOID_REQUIRES_APPROVAL: 'true' },
  );
  const { q, as, post, bet, decide, closeBetting, voidRound, ended, replay, table } = studio;

  const approve = async (tableId: string, requestId: string, by: Record<string, string>) => {
    const r = await post(`/tables/${tableId}/void-requests/${requestId}/approve`, {}, by);
    expect(r.body).toMatchObject({ accepted: true });
  };

  /** The round's void requests as supervisor_actions keeps them, oldest first. */
  const requestsOf = (roundId: string) =>
    q<{ id: string; status: string; reason: string; actor_name: string }>(
      `SELECT id::text, status, reason, actor_name FROM supervisor_actions
        WHERE round_id = $1 AND action = 'void' ORDER BY id`,
      [roundId],
    );

  it('replays a round whose void request lapsed, then the next round voided mid-deal on approval', async () => {
    const bets = [
      { playerId: 'alice', betType: 'player', spot: '1', amount: 1_000, currency: 'THB' },
      { playerId: 'bob', betType: 'player', spot: '2', amount: 2_000, currency: 'THB' },
    ];
    // The first request: nobody approves it, the round is dealt to its end and the request lapses.
    const lapsing = await studio.bettingRound(POK);
    await bet(POK, bets);
    await voidRound(POK, lapsing.id, 'banker card flashed');
    await closeBetting(POK);
    expect(await ended(lapsing.id)).toBe('completed');
    expect(await requestsOf(lapsing.id)).toMatchObject([
      { status: 'lapsed', reason: 'banker card flashed' },
    ]);

    // The next round: asked again while its cards are dealt face down, approved at once.
    const round = await studio.bettingRound(POK, [lapsing.id]);
    await bet(POK, bets);
    await closeBetting(POK);
    await waitFor(
      'three cards of the round dealt',
      async () =>
        (await q(`SELECT 1 FROM round_cards WHERE round_id = $1`, [round.id])).length >= 3,
      30_000,
      30,
    );
    const asked = await voidRound(POK, round.id, 'shoe jammed');
    await approve(POK, asked!.requestId!, as.supervisor2);
    expect(await ended(round.id)).toBe('voided');
    const cards = await q<{ face_down: boolean; revealed_at: Date | null }>(
      `SELECT face_down, revealed_at FROM round_cards WHERE round_id = $1`,
      [round.id],
    );
    expect(cards.length).toBeLessThan(12);
    expect(cards.every((c) => c.face_down && c.revealed_at === null)).toBe(true);

    expect(await replay(lapsing.id)).toMatchObject({ verdict: 'match' });
    expect(await replay(round.id)).toMatchObject({ verdict: 'match', settlements: 2 });
  });

  it('replays an Infinite Blackjack round voided mid-window on the second of two requests, the first lapsing', async () => {
    const round = await studio.bettingRound(IBJ);
    await bet(
      IBJ,
      ['p1', 'p2', 'p3'].map((playerId) => ({ playerId, betType: 'main', amount: 1_000 })),
    );
    await closeBetting(IBJ);
    // In the first decision window (a minute long): p1 hits, p2 stands, p3 has not answered.
    await waitFor(
      'a decision window',
      async () => {
        const now = await table(IBJ);
        if (now?.id !== round.id) throw new Error('the round ended before a decision window');
        return now.phase === 'deciding';
      },
      30_000,
      40,
    );
    for (const [playerId, action] of [
      ['p1', 'hit'],
      ['p2', 'stand'],
    ]) {
      expect((await decide(IBJ, { playerId, action })).body).toMatchObject({ accepted: true });
    }
    // Two supervisors each ask, for different reasons; the first approves the second's request.
    await voidRound(IBJ, round.id, 'camera one down', as.supervisor);
    const second = await voidRound(IBJ, round.id, 'dealer exposed the hole card', as.supervisor2);
    await approve(IBJ, second!.requestId!, as.supervisor);
    expect(await ended(round.id)).toBe('voided');
    expect(await requestsOf(round.id)).toMatchObject([
      { status: 'lapsed', reason: 'camera one down', actor_name: 'supervisor' },
      { status: 'applied', reason: 'dealer exposed the hole card', actor_name: 'supervisor2' },
    ]);
    const [hole] = await q(
      `SELECT face_down, revealed_at FROM round_cards WHERE round_id = $1 AND slot = 'dealer-hole'`,
      [round.id],
    );
    expect(hole).toEqual({ face_down: true, revealed_at: null });
    expect(await replay(round.id)).toMatchObject({ verdict: 'match', settlements: 3 });
  });

  it('replays every round the tables played to a match', async () => {
    const rounds = await q<{ id: string }>(
      `SELECT id FROM rounds WHERE status IN ('voided', 'completed') ORDER BY started_at`,
    );
    expect(rounds.length).toBeGreaterThanOrEqual(3);
    const verdicts = await Promise.all(rounds.map((r) => replay(r.id)));
    expect(verdicts.filter((v) => v.verdict !== 'match')).toEqual([]);
  });
});
