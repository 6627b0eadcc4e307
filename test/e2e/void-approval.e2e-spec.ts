import type { RunningStudio } from '../../src/bootstrap';
import { CreateUser } from '../../src/auth/create-user/create-user.use-case';
import type { TableDefinition } from '../../src/config/tables-config';
import { postJson, shoeDealtByTheTest, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

/** With VOID_REQUIRES_APPROVAL a void takes effect only when a second supervisor approves it. */
describe('void with second-supervisor approval', () => {
  let db: TestDatabase;
  let studio: RunningStudio;

  beforeAll(async () => {
    db = await createTestDatabase('void_approval');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        {
          id: 'approval-pd',
          name: 'Approval PD',
          game: 'pok-deng',
          currency: 'THB',
          bettingWindowMs: 60_000,
          scanner: {
            wireFormat: 'line',
            virtualShoe: shoeDealtByTheTest(5),
          },
        } as unknown as TableDefinition,
      ],
      env: {
        DEMO_USERS: 'true',
        VOID_REQUIRES_APPROVAL: 'true',
        PLATFORM_API_KEYS: 'k-approval',
        VIRTUAL_DEALER_PACE_MS: '20',
      },
    });
    const created = await studio.app
      .get(CreateUser)
      .execute({ username: 'supervisor2', role: 'supervisor', password: 'second-supervisor' });
    expect(created.ok).toBe(true);
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  async function login(username: string, password: string) {
    const r = await fetch(`${studio.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    return { authorization: `Bearer ${((await r.json()) as { token: string }).token}` };
  }
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    postJson(studio.url, path, body, headers);

  it('records the first supervisor’s void as pending and applies it on a second supervisor’s approval', async () => {
    const first = await login('supervisor', 'supervisor-demo');
    const second = await login('supervisor2', 'second-supervisor');
    const round = await waitFor('betting to open', async () => {
      const view = (await (
        await fetch(`${studio.url}/tables/approval-pd`, { headers: first })
      ).json()) as {
        round: { id: string; bettingOpen: boolean } | null;
      };
      return view.round?.bettingOpen ? view.round : undefined;
    });
    const bet = await post(
      '/platform/tables/approval-pd/bets',
      { playerId: 'p1', betType: 'player', spot: '1', amount: 5_000 },
      { 'x-platform-key': 'k-approval' },
    );
    expect(bet.body).toMatchObject({ accepted: true });

    const requested = await post(
      '/tables/approval-pd/void',
      { reason: 'Dealer exposed the banker card' },
      first,
    );
    expect(requested.body).toMatchObject({
      accepted: true,
      reply: { pendingApproval: true, roundId: round.id },
    });
    const requestId = (requested.body.reply as { requestId: string }).requestId;
    const q = (sql: string, p: unknown[] = []) => studio.database.dataSource.query(sql, p);
    expect((await q(`SELECT status FROM rounds WHERE id = $1`, [round.id]))[0].status).not.toBe(
      'voided',
    );

    const self = await post(`/tables/approval-pd/void-requests/${requestId}/approve`, {}, first);
    expect(self).toMatchObject({ status: 403, body: { error: 'second-supervisor-required' } });
    const approved = await post(
      `/tables/approval-pd/void-requests/${requestId}/approve`,
      {},
      second,
    );
    expect(approved.body).toMatchObject({ accepted: true });
    const again = await post(`/tables/approval-pd/void-requests/${requestId}/approve`, {}, second);
    expect(again).toMatchObject({ status: 409, body: { error: 'request-not-pending' } });

    expect(
      (await q(`SELECT status, void_reason FROM rounds WHERE id = $1`, [round.id]))[0],
    ).toEqual({
      status: 'voided',
      void_reason: 'Dealer exposed the banker card',
    });
    expect(
      await q(`SELECT returned, outcome FROM settlements WHERE round_id = $1`, [round.id]),
    ).toEqual([{ returned: '10000', outcome: 'void-refund' }]);
    const [action] = await q(
      `SELECT a.status, a.actor_name, u.username AS approved_by FROM supervisor_actions a
         JOIN users u ON u.id = a.approved_by_user_id WHERE a.id = $1`,
      [requestId],
    );
    expect(action).toEqual({
      status: 'applied',
      actor_name: 'supervisor',
      approved_by: 'supervisor2',
    });
  });

  it('lapses a void request still pending when its round ends, and refuses to approve it', async () => {
    const first = await login('supervisor', 'supervisor-demo');
    const second = await login('supervisor2', 'second-supervisor');
    const q = (sql: string, p: unknown[] = []) => studio.database.dataSource.query(sql, p);
    const voided = (await q(`SELECT id FROM rounds WHERE status = 'voided'`)).map(
      (r: { id: string }) => r.id,
    );
    const round = await waitFor('the next round', async () => {
      const view = (await (
        await fetch(`${studio.url}/tables/approval-pd`, { headers: first })
      ).json()) as { round: { id: string; bettingOpen: boolean } | null };
      return view.round?.bettingOpen && !voided.includes(view.round.id) ? view.round : undefined;
    });
    const requested = await post('/tables/approval-pd/void', { reason: 'Looked odd' }, first);
    expect(requested.body).toMatchObject({ accepted: true, reply: { pendingApproval: true } });
    const requestId = (requested.body.reply as { requestId: string }).requestId;

    // Nobody approves; the dealer closes betting and the virtual shoe deals the round to its end.
    expect((await post('/tables/approval-pd/close-betting', {}, first)).body).toMatchObject({
      accepted: true,
    });
    await waitFor('the round to complete', async () => {
      const [r] = await q(`SELECT status FROM rounds WHERE id = $1`, [round.id]);
      return r.status === 'completed' ? r : undefined;
    });
    const [action] = await q(`SELECT status, details FROM supervisor_actions WHERE id = $1`, [
      requestId,
    ]);
    expect(action).toMatchObject({
      status: 'lapsed',
      details: { lapsedBecause: 'the round ended before a second supervisor approved' },
    });
    const late = await post(`/tables/approval-pd/void-requests/${requestId}/approve`, {}, second);
    expect(late).toMatchObject({
      status: 409,
      body: { error: 'request-not-pending', message: `Void request ${requestId} is lapsed` },
    });
  });
});
