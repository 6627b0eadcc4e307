import type { RoundVerdict } from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import { useAuditStudio } from '../support/audit-studio';

jest.setTimeout(180_000);

/**
 * Replay against an insider's SQL edits of rows the chain also records (see
 * test/support/audit-studio.ts for the rounds): an Infinite Blackjack decision, a card's face-down
 * flag or reveal time, a reading's outcome. Each edit alone replays to a match from the rows (no
 * settlement depends on it); only the hash-chained round events tell. audit-verification checks
 * that the honest rounds of every game replay clean, and the other edits.
 */
describe('auditor replay: rows edited in SQL against the chain', () => {
  const audit = useAuditStudio('audit_insider_edits');
  const { q, get } = audit;

  /** The round's replay mismatches' fields (none when it matches, else its verdict). */
  const mismatchedFields = async (round: string) => {
    const { body } = await get<RoundVerdict>(`/audit/rounds/${round}/replay`);
    if (body.verdict === 'match') return [];
    return body.verdict === 'mismatch' ? body.mismatches.map((m) => m.field) : [body.verdict];
  };

  it('names an Infinite Blackjack decision rewritten, deleted or added against the chain', async () => {
    const round = audit.ibjRoundId;
    const [first] = await q<{
      id: string;
      player_id: string;
      action: string;
      hand: string | null;
    }>(
      `SELECT id, player_id, action, hand FROM decisions WHERE round_id = $1 ORDER BY id LIMIT 1`,
      [round],
    );
    expect(first).toBeDefined(); // p1 stood when asked
    const player = first.player_id;
    const other = first.action === 'hit' ? 'stand' : 'hit';
    await q(`UPDATE decisions SET action = $2, hand = 'node-1/1' WHERE id = $1`, [first.id, other]);
    try {
      expect(await mismatchedFields(round)).toEqual(
        expect.arrayContaining([
          `decision ${player}#1.action (chain)`,
          `decision ${player}#1.hand (chain)`,
        ]),
      );
    } finally {
      await q(`UPDATE decisions SET action = $2, hand = $3 WHERE id = $1`, [
        first.id,
        first.action,
        first.hand,
      ]);
    }
    expect(await mismatchedFields(round)).toEqual([]);
    // Deleted (kept aside to put back as it was), then one added for a player who never decided.
    const [kept] = await q<Record<string, unknown>>(`SELECT * FROM decisions WHERE id = $1`, [
      first.id,
    ]);
    const [{ n }] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM decisions WHERE round_id = $1 AND player_id = $2`,
      [round, player],
    );
    await q(`DELETE FROM decisions WHERE id = $1`, [first.id]);
    try {
      // Compared in order, player by player: the chain accepted one more of p1's than the rows
      // hold (p1 stood again each time it was asked, so its decisions read alike).
      expect(await mismatchedFields(round)).toContain(`decision ${player}#${n} in the chain`);
    } finally {
      // As it was, but for the columns PostgreSQL computes (the player's platform).
      const computed = await q<{ name: string }>(
        `SELECT column_name AS name FROM information_schema.columns
          WHERE table_name = 'decisions' AND is_generated <> 'NEVER'`,
      );
      const columns = Object.keys(kept).filter((c) => !computed.some((g) => g.name === c));
      await q(
        `INSERT INTO decisions (${columns.join(', ')})
           VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((c) => kept[c]),
      );
    }
    // One more stand of p1's in the same window: the rows replay to the same result, as a player
    // who stood twice stands.
    await q(
      `INSERT INTO decisions (round_id, player_id, hand, action, automatic, decided_at, decision_window)
       SELECT round_id, player_id, hand, action, automatic, decided_at, decision_window
         FROM decisions WHERE id = $1`,
      [first.id],
    );
    try {
      expect(await mismatchedFields(round)).toEqual([`decision ${player}#${n + 1} in the chain`]);
    } finally {
      await q(
        `DELETE FROM decisions WHERE id = (SELECT max(id) FROM decisions WHERE round_id = $1)`,
        [round],
      );
    }
    expect(await mismatchedFields(round)).toEqual([]);
  });

  it("names a card's face_down or revealed_at edited against the chain", async () => {
    const pok = audit.pokRound.id;
    const ibj = audit.ibjRoundId;
    // A Pok Deng card (every one is dealt face down) shown as dealt face up, and an Infinite
    // Blackjack face-up card's reveal moved a second later.
    const [down] = await q<{ id: string; slot: string; revealed_at: Date | null }>(
      `SELECT id, slot, revealed_at FROM round_cards WHERE round_id = $1 ORDER BY id LIMIT 1`,
      [pok],
    );
    const [up] = await q<{ id: string; slot: string; revealed_at: Date }>(
      `SELECT id, slot, revealed_at FROM round_cards
          WHERE round_id = $1 AND NOT face_down ORDER BY id LIMIT 1`,
      [ibj],
    );
    await q(`UPDATE round_cards SET face_down = false, revealed_at = dealt_at WHERE id = $1`, [
      down.id,
    ]);
    await q(
      `UPDATE round_cards SET revealed_at = revealed_at + interval '1 second' WHERE id = $1`,
      [up.id],
    );
    try {
      expect(await mismatchedFields(pok)).toEqual([
        `card ${down.slot} face down (chain)`,
        `card ${down.slot} revealed (chain)`,
      ]);
      expect(await mismatchedFields(ibj)).toEqual([`card ${up.slot} revealed (chain)`]);
    } finally {
      await q(`UPDATE round_cards SET face_down = true, revealed_at = $2 WHERE id = $1`, [
        down.id,
        down.revealed_at,
      ]);
      await q(`UPDATE round_cards SET revealed_at = $2 WHERE id = $1`, [up.id, up.revealed_at]);
    }
    expect(await mismatchedFields(pok)).toEqual([]);
    expect(await mismatchedFields(ibj)).toEqual([]);
  });

  it("names a scanner reading's outcome edited where the round's chain records it", async () => {
    const round = audit.pokRound.id;
    const [reading] = await q<{ id: string; at: string; seq: number | null; outcome: string }>(
      `SELECT s.id, to_char(s.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
                s.device_seq AS seq, s.outcome
           FROM round_cards c JOIN scanner_readings s ON s.id = c.reading_id
          WHERE c.round_id = $1 ORDER BY c.id LIMIT 1`,
      [round],
    );
    expect(reading.outcome).toBe('applied');
    await q(`UPDATE scanner_readings SET outcome = 'rejected' WHERE id = $1`, [reading.id]);
    try {
      const { body } = await get<RoundVerdict>(`/audit/rounds/${round}/replay`);
      expect(body).toMatchObject({
        verdict: 'mismatch',
        mismatches: [
          {
            field: `reading ${reading.at}${reading.seq === null ? '' : ` #${reading.seq}`} outcome (chain)`,
            stored: 'rejected',
            replayed: 'applied',
          },
        ],
      });
    } finally {
      await q(`UPDATE scanner_readings SET outcome = $2 WHERE id = $1`, [
        reading.id,
        reading.outcome,
      ]);
    }
    expect(await mismatchedFields(round)).toEqual([]);
  });
});
