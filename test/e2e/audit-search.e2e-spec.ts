import { randomUUID } from 'node:crypto';
import { RoundSummary, useAuditStudio } from '../support/audit-studio';

jest.setTimeout(180_000);

/**
 * The auditor API on the real service and PostgreSQL, over rounds the orchestrator played (see
 * test/support/audit-studio.ts): who may ask, searching, paging, a round's timeline, a player's bets.
 */
describe('auditor history: search and timeline', () => {
  const audit = useAuditStudio('audit_search');
  const { q, get, search, since } = audit;

  describe('API', () => {
    it('is for auditors only, and is described in the OpenAPI document at /docs/openapi.json', async () => {
      expect((await get('/audit/rounds', 'x'.repeat(32))).status).toBe(401);
      expect((await get('/audit/rounds', audit.dealer)).status).toBe(403);
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
      expect(audit.pokRound).toMatchObject({
        tableId: 'pokdeng-audit',
        game: 'pok-deng',
        status: 'completed',
      });

      const byTable = (await search({ tableId: 'ibj-audit', limit: '500' })).body.items;
      expect(byTable.map((r) => r.id)).toContain(audit.ibjRoundId);
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

      const start = Date.parse(audit.pokRound.startedAt);
      const inRange = (
        await search({
          from: new Date(start).toISOString(),
          to: new Date(start + 1).toISOString(),
        })
      ).body.items;
      expect(inRange.map((r) => r.id)).toContain(audit.pokRound.id);
      expect(inRange.every((r) => Date.parse(r.startedAt) === start)).toBe(true);
      const before2021 = (await search({ to: '2021-01-01T00:00:00Z' })).body.items;
      expect(before2021.map((r) => r.status).sort()).toEqual(['paused', 'voided']);

      const byShoe = (await search({ shoeId: audit.pokRound.shoeId!, limit: '500' })).body.items;
      expect(byShoe.map((r) => r.id)).toContain(audit.pokRound.id);
      expect(new Set(byShoe.map((r) => r.shoeId))).toEqual(new Set([audit.pokRound.shoeId]));

      expect((await search({ playerId: 'alice' })).body.items.map((r) => r.id)).toEqual([
        audit.pokRound.id,
      ]);
      const p1Rounds = (await search({ playerId: 'p1' })).body.items;
      const [{ n: p1Count }] = await q<{ n: number }>(
        `SELECT count(DISTINCT round_id)::int AS n FROM bets WHERE player_id = 'p1'`,
      );
      expect(p1Rounds).toHaveLength(p1Count);
      expect(p1Rounds.map((r) => r.id)).toContain(audit.ibjRoundId);
      expect(new Set(p1Rounds.map((r) => r.tableId))).toEqual(new Set(['ibj-audit']));
      expect((await search({ playerId: 'nobody' })).body.items).toEqual([]);

      const bad = await search({ status: 'lost' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'bad-request' });
    });

    it('pages with a keyset cursor: every round once, newest first, the same as one big page', async () => {
      const filter = { from: since.toISOString(), to: audit.until.toISOString() };
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
      }>(`/audit/rounds/${audit.pokRound.id}/timeline`);
      expect(status).toBe(200);
      expect(body.round.id).toBe(audit.pokRound.id);
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
        `/audit/rounds/${audit.ibjRoundId!}/timeline`,
      );
      const stored = await q<{ player_id: string; action: string; automatic: boolean }>(
        `SELECT player_id, action, automatic FROM decisions WHERE round_id = $1 ORDER BY id`,
        [audit.ibjRoundId],
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
          roundId: audit.pokRound.id,
          tableId: 'pokdeng-audit',
          status: 'settled',
        });
        expect((bet.settlement as { returned: number }).returned).toBe(
          Number(settled.find((s) => s.bet_id === bet.betId)!.returned),
        );
      }
    });
  });
});
