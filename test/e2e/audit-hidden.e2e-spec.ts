import { randomUUID } from 'node:crypto';
import { PLATFORM_KEY, RoundSummary, useAuditStudio } from '../support/audit-studio';
import { waitFor } from '../support/studio-harness';

jest.setTimeout(180_000);

/**
 * The auditor API on the real service and PostgreSQL, over rounds the orchestrator played (see
 * test/support/audit-studio.ts): face-down cards stay hidden from auditors until the round ends,
 * and bad query input gets a specific 400.
 */
describe('auditor history: hidden information and bad input', () => {
  const audit = useAuditStudio('audit_hidden');
  const { q, get, post, search, tableRound, roundStatus, since } = audit;

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

    it('withholds face-down values, restricted events and their raw bytes audit.until the round ends, then shows them', async () => {
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
    const range = () => ({ from: since.toISOString(), to: audit.until.toISOString() });

    it('refuses a query parameter the endpoint does not read, rather than answer unfiltered', async () => {
      expect(await refused('/audit/rounds?player=alice', 'unknown-parameter')).toMatchObject({
        message: expect.stringContaining('"player"'),
      });
      await refused(`/audit/export?${new URLSearchParams(range())}&table=x`, 'unknown-parameter');
      await refused(`/audit/replay?${new URLSearchParams(range())}&table=x`, 'unknown-parameter');
      await refused('/audit/players/alice/bets?tableId=x', 'unknown-parameter');
      await refused('/audit/chain?table=pokdeng-audit', 'unknown-parameter');
      await refused('/audit/chain/export?tableId=pokdeng-audit&all=1', 'unknown-parameter');
    });

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

    it('answers 400 invalid-cursor to a garbled, crafted, edited or borrowed cursor', async () => {
      const crafted = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const issued = (await search({ limit: '1' })).body.nextCursor!;
      const [payload, mac] = issued.split('.');
      const [at, id] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [string, string];
      // The same keyset in another form, or a neighbouring one, under the issued mac.
      const edited = (value: unknown) => `${crafted(value)}.${mac}`;
      const garbled = [
        '%%%',
        issued.slice(0, -3),
        payload,
        crafted([at, id]),
        edited([at.replace(/\d(?=\+)/, (d) => String((Number(d) + 1) % 10)), id]),
        edited([at, randomUUID()]),
        edited(['2026-13-45 99:99:99+00', randomUUID()]),
        edited([at, 'a\u0000b']),
        edited([at, 7]),
        edited(['0000-01-01 00:00:00+00', randomUUID()]),
      ];
      for (const cursor of garbled) {
        await refused(`/audit/rounds?${new URLSearchParams({ cursor })}`, 'invalid-cursor');
        await refused(
          `/audit/players/alice/bets?${new URLSearchParams({ cursor })}`,
          'invalid-cursor',
        );
      }
      expect((await search({ cursor: issued })).status).toBe(200);
      // A cursor is good for the listing that issued it only.
      const bets = await get<{ nextCursor: string | null }>('/audit/players/alice/bets?limit=1');
      const betCursor = bets.body.nextCursor!;
      expect(betCursor).toEqual(expect.any(String));
      await refused(
        `/audit/rounds?${new URLSearchParams({ cursor: betCursor })}`,
        'invalid-cursor',
      );
      await refused(
        `/audit/players/alice/bets?${new URLSearchParams({ cursor: issued })}`,
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
});
