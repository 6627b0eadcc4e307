import { runAuditCli } from '../../apps/audit-cli/audit-cli';
import type {
  RangeVerdict,
  RoundVerdict,
} from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import type { PublishedChainVerdict } from '../../src/audit/verify-event-chain/verify-event-chain.use-case';
import { useAuditStudio } from '../support/audit-studio';

jest.setTimeout(180_000);

/**
 * The auditor API on the real service and PostgreSQL, over rounds the orchestrator played (see
 * test/support/audit-studio.ts): exports, replay verification of the stored settlements and the
 * hash-chained event log, each also tampered with in SQL.
 */
describe('auditor history: exports, replay and the event chain', () => {
  const audit = useAuditStudio('audit_verification');
  const { q, get, search, since } = audit;

  describe('export', () => {
    it('exports a time range as streamed CSV and NDJSON, one line per round with its totals', async () => {
      const range = { from: since.toISOString(), to: audit.until.toISOString() };
      const all = (await search({ ...range, limit: '500' })).body.items;
      const csv = await get(`/audit/export?${new URLSearchParams({ ...range, format: 'csv' })}`);
      expect(csv.status).toBe(200);
      expect(csv.type).toContain('text/csv');
      const lines = csv.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'roundId,tableId,game,shoeId,shoeNumber,roundNumber,status,startedAt,endedAt,voidReason,platformId,currency,bets,staked,returned,net',
      );
      expect(lines).toHaveLength(all.length + 1);
      const pokLine = lines.find((l) => l.startsWith(audit.pokRound.id))!.split(',');
      const [totals] = await q<{
        platform_id: string;
        currency: string;
        staked: string;
        returned: string;
      }>(
        `SELECT platform_id, currency, sum(stake) AS staked, sum(returned) AS returned
           FROM settlements WHERE round_id = $1 GROUP BY platform_id, currency`,
        [audit.pokRound.id],
      );
      // One line per round, platform and currency: this round's players are of one of each.
      expect(pokLine.slice(10)).toEqual([
        totals.platform_id,
        totals.currency,
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
      // The tables play on: a round started in the range may complete while the replay runs, so
      // the replayed count lies between the completed rounds before and after it.
      const completedNow = async () =>
        (
          await q<{ completed: number }>(
            `SELECT count(*)::int AS completed FROM rounds WHERE status = 'completed' AND started_at >= $1 AND started_at < $2`,
            [since, audit.until],
          )
        )[0].completed;
      const before = await completedNow();
      const { body } = await get<RangeVerdict>(
        `/audit/replay?${new URLSearchParams({ from: since.toISOString(), to: audit.until.toISOString() })}`,
      );
      const completed = await completedNow();
      expect(body.failed).toEqual([]);
      expect(body.matched).toBeGreaterThanOrEqual(before);
      expect(body.matched).toBeLessThanOrEqual(completed);
      expect(completed).toBeGreaterThanOrEqual(4);
      const games = await q<{ game: string }>(
        `SELECT DISTINCT game FROM rounds WHERE status = 'completed' AND started_at < $1 ORDER BY game`,
        [audit.until],
      );
      expect(games.map((g) => g.game)).toEqual([
        'blackjack-lux',
        'european-blackjack-practice',
        'infinite-blackjack',
        'pok-deng',
      ]);
      const lux = await get<RoundVerdict>(`/audit/rounds/${audit.luxRoundId}/replay`);
      expect(lux.body).toMatchObject({ verdict: 'match', settlements: 2 });
      const one = await get<RoundVerdict>(`/audit/rounds/${audit.pokRound.id}/replay`);
      expect(one.body).toEqual({
        roundId: audit.pokRound.id,
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
        const kept = await get<RoundVerdict>(`/audit/rounds/${audit.pokRound.id}/replay`);
        expect(kept.body).toMatchObject({ verdict: 'match', settlements: 3 });
        // Without the round's own copy, the replay takes the table's configuration of today.
        const [{ own }] = await q<{ own: unknown }>(
          `WITH old AS (SELECT configuration FROM rounds WHERE id = $1)
           UPDATE rounds SET configuration = NULL WHERE id = $1 RETURNING (SELECT configuration FROM old) AS own`,
          [audit.pokRound.id],
        );
        const today = await get<RoundVerdict>(`/audit/rounds/${audit.pokRound.id}/replay`);
        expect(today.body).toMatchObject({ verdict: 'mismatch' });
        await q(`UPDATE rounds SET configuration = $2 WHERE id = $1`, [audit.pokRound.id, own]);
      } finally {
        await q(`UPDATE studio_tables SET configuration = $1 WHERE id = 'pokdeng-audit'`, [
          configuration,
        ]);
      }
    });

    it('fails precisely on a round whose stored settlement was altered, over the API and the CLI', async () => {
      const [victim] = await q<{
        id: string;
        idx: number;
        bet_id: string;
        returned: string;
        net: string;
      }>(
        `SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS idx, bet_id, returned, net
           FROM settlements WHERE round_id = $1 ORDER BY id OFFSET 1 LIMIT 1`,
        [audit.pokRound.id],
      );
      await q(`UPDATE settlements SET returned = returned + 1000, net = net + 1000 WHERE id = $1`, [
        victim.id,
      ]);
      try {
        const { body } = await get<RoundVerdict>(`/audit/rounds/${audit.pokRound.id}/replay`);
        expect(body).toEqual({
          roundId: audit.pokRound.id,
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
            // The row no longer says what the chained BetsSettled announced.
            {
              field: `settlement ${victim.bet_id}.returned (chain)`,
              stored: Number(victim.returned) + 1000,
              replayed: Number(victim.returned),
            },
            {
              field: `settlement ${victim.bet_id}.net (chain)`,
              stored: Number(victim.net) + 1000,
              replayed: Number(victim.net),
            },
          ],
        });
        const range = await get<RangeVerdict>(
          `/audit/replay?${new URLSearchParams({ from: since.toISOString(), to: audit.until.toISOString() })}`,
        );
        expect(range.body.failed.map((f) => f.roundId)).toEqual([audit.pokRound.id]);

        const out: string[] = [];
        const code = await runAuditCli(
          'verify-replay',
          ['--from', since.toISOString(), '--to', audit.until.toISOString()],
          q,
          (line) => out.push(line),
        );
        expect(code).toBe(1);
        expect(out.join('\n')).toContain(
          `MISMATCH  round ${audit.pokRound.id} (pokdeng-audit, pok-deng):\n  settlement[1].returned: stored ${Number(victim.returned) + 1000}, replay gives ${victim.returned}`,
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
        await runAuditCli('verify-replay', ['--round', audit.pokRound.id], q, (l) => out.push(l)),
      ).toBe(0);
      expect(out).toEqual([
        `MATCH     round ${audit.pokRound.id} (pokdeng-audit, pok-deng): 3 settlement(s) as stored`,
      ]);
    });
  });

  describe('tamper evidence', () => {
    const TABLE = 'pokdeng-audit';
    const chain = async () =>
      (await get<Array<Record<string, unknown>>>(`/audit/chain?tableId=${TABLE}`)).body[0];

    it('finds every table chain intact', async () => {
      const { body } = await get<PublishedChainVerdict[]>('/audit/chain');
      expect(body.map((v) => v.tableId)).toEqual([
        'ibj-audit',
        'lux-audit',
        'pokdeng-audit',
        'practice-audit',
      ]);
      for (const v of body) {
        expect(v.intact).toBe(true);
        expect(v.events).toBeGreaterThan(10);
        // No broker here: nothing is published, so nothing is anchored, and it says so.
        expect(v).toMatchObject({ anchoredUpTo: 0, anchor: { status: 'no-checkpoint' } });
        expect(v.unanchored.events).toBeGreaterThanOrEqual(v.events); // the tables play on
      }
      const out: string[] = [];
      expect(await runAuditCli('verify-chain', [], q, (l) => out.push(l))).toBe(0);
      expect(out).toHaveLength(4);
    });

    it('names rows edited alike (a stake with its settlement, a card with its bytes) against the chain', async () => {
      const round = audit.pokRound.id;
      const [bet] = await q<{ bet_id: string; stake: string; returned: string; net: string }>(
        `SELECT bet_id, stake, returned, net FROM settlements
          WHERE round_id = $1 AND outcome <> 'cancelled' ORDER BY id LIMIT 1`,
        [round],
      );
      const [card] = await q<{ id: string; slot: string; raw: Buffer }>(
        `SELECT s.id, c.slot, s.raw FROM round_cards c JOIN scanner_readings s ON s.id = c.reading_id
          WHERE c.round_id = $1 AND s.kind = 'card' ORDER BY c.id LIMIT 1`,
        [round],
      );
      // Replayed from the rows alone these agree with one another: only the chain tells.
      await q(`UPDATE bets SET amount = amount * 10, deducted = deducted * 10 WHERE id = $1`, [
        bet.bet_id,
      ]);
      await q(
        `UPDATE settlements SET stake = stake * 10, returned = returned * 10, net = net * 10
          WHERE round_id = $1 AND bet_id = $2`,
        [round, bet.bet_id],
      );
      await q(`UPDATE scanner_readings SET raw = $2 WHERE id = $1`, [
        card.id,
        Buffer.concat([card.raw, Buffer.from(' ')]),
      ]);
      try {
        const { body } = await get<RoundVerdict>(`/audit/rounds/${round}/replay`);
        expect(body.verdict).toBe('mismatch');
        const fields = (body as { mismatches: Array<{ field: string }> }).mismatches.map(
          (m) => m.field,
        );
        expect(fields).toEqual(
          expect.arrayContaining([
            `settlement ${bet.bet_id}.stake (chain)`,
            `card ${card.slot} raw bytes (chain)`,
          ]),
        );
      } finally {
        await q(`UPDATE bets SET amount = amount / 10, deducted = deducted / 10 WHERE id = $1`, [
          bet.bet_id,
        ]);
        await q(
          `UPDATE settlements SET stake = $3, returned = $4, net = $5
            WHERE round_id = $1 AND bet_id = $2`,
          [round, bet.bet_id, bet.stake, bet.returned, bet.net],
        );
        await q(`UPDATE scanner_readings SET raw = $2 WHERE id = $1`, [card.id, card.raw]);
      }
      const { body } = await get<RoundVerdict>(`/audit/rounds/${round}/replay`);
      expect(body.verdict).toBe('match');
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
          `INSERT INTO round_events (id, table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash, chain_version, chain_salt)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
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
            row.chain_version,
            row.chain_salt,
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
