import type { CardCode } from '@studio/cards';
import { isGameKind } from '@studio/contracts';
import { createGameAdapter } from '../games/game-registry';
import { tableRunSettings } from '../tables/table-settings';
import type { AuditQuery } from './audit-query';
import { AuditRequestError } from './audit-query';
import { compareReplay, ReplayMismatch, replayStoredRound, StoredRound } from '../games/replay';

export type RoundVerdict =
  | { roundId: string; tableId: string; game: string; verdict: 'match'; settlements: number }
  | {
      roundId: string;
      tableId: string;
      game: string;
      verdict: 'mismatch';
      mismatches: ReplayMismatch[];
    }
  | {
      roundId: string;
      tableId: string;
      game: string;
      verdict: 'replay-failed';
      step: string;
      code: string;
      message: string;
    }
  | { roundId: string; tableId: string; game: string; verdict: 'skipped'; reason: string };

export interface RangeVerdict {
  from: string;
  to: string;
  rounds: number;
  matched: number;
  skipped: number;
  failed: RoundVerdict[];
}

interface RoundRow {
  id: string;
  table_id: string;
  game: string;
  status: string;
  shoe_number: number;
  round_number: number;
  configuration: Record<string, unknown>;
  currency: string;
}

/**
 * Replay verification: a completed round is recomputed from its stored bets, cards (checked
 * against the raw readings they came from), decisions and the rules it was played under (the
 * table configuration kept with the round) with the same pure engines the tables run, and every
 * settlement is compared with the stored one.
 */
export class VerifyRoundReplay {
  constructor(private readonly q: AuditQuery) {}

  async round(roundId: string): Promise<RoundVerdict> {
    const [row] = await this.q<RoundRow>(
      `SELECT r.id, r.table_id, r.game, r.status, r.shoe_number, r.round_number,
              COALESCE(r.configuration, t.configuration) AS configuration, t.currency
         FROM rounds r JOIN studio_tables t ON t.id = r.table_id WHERE r.id = $1`,
      [roundId],
    );
    if (!row) throw new AuditRequestError('not-found', `No round ${roundId}`);
    return this.verify(row);
  }

  /** Every round started in [from, to), oldest first; the verdicts of rounds that did not match. */
  async range(from: Date, to: Date, tableId?: string): Promise<RangeVerdict> {
    const result: RangeVerdict = {
      from: from.toISOString(),
      to: to.toISOString(),
      rounds: 0,
      matched: 0,
      skipped: 0,
      failed: [],
    };
    let after: { startedAt: string; id: string } | undefined;
    for (;;) {
      const rows = await this.q<RoundRow & { started_key: string }>(
        `SELECT r.id, r.table_id, r.game, r.status, r.shoe_number, r.round_number,
              COALESCE(r.configuration, t.configuration) AS configuration,
                t.currency, r.started_at::text AS started_key
           FROM rounds r JOIN studio_tables t ON t.id = r.table_id
          WHERE r.started_at >= $1 AND r.started_at < $2
            AND ($3::text IS NULL OR r.table_id = $3)
            AND ($4::timestamptz IS NULL OR (r.started_at, r.id) > ($4::timestamptz, $5::uuid))
          ORDER BY r.started_at, r.id LIMIT 200`,
        [from, to, tableId ?? null, after?.startedAt ?? null, after?.id ?? null],
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        const verdict = await this.verify(row);
        result.rounds += 1;
        if (verdict.verdict === 'match') result.matched += 1;
        else if (verdict.verdict === 'skipped') result.skipped += 1;
        else result.failed.push(verdict);
      }
      const last = rows[rows.length - 1];
      after = { startedAt: last.started_key, id: last.id };
    }
    return result;
  }

  private async verify(row: RoundRow): Promise<RoundVerdict> {
    const base = { roundId: row.id, tableId: row.table_id, game: row.game };
    if (row.status !== 'completed') {
      return { ...base, verdict: 'skipped', reason: `round is ${row.status}` };
    }
    if (!isGameKind(row.game)) {
      return { ...base, verdict: 'skipped', reason: `no engine for ${row.game}` };
    }
    const adapter = createGameAdapter(
      tableRunSettings({
        ...row.configuration,
        id: row.table_id,
        game: row.game,
        currency: row.currency,
      }),
    );
    const stored = await this.load(row);
    const readingMismatches = await this.readingMismatches(row.id);
    const result = replayStoredRound(adapter, stored);
    if (!result.ok) {
      return {
        ...base,
        verdict: 'replay-failed',
        step: result.step,
        code: result.rejection.code,
        message: result.rejection.message,
      };
    }
    const mismatches = [...readingMismatches, ...compareReplay(stored, result.replayed)];
    return mismatches.length === 0
      ? { ...base, verdict: 'match', settlements: stored.settlements.length }
      : { ...base, verdict: 'mismatch', mismatches };
  }

  private async load(row: RoundRow): Promise<StoredRound> {
    const [bets, cards, decisions, settlements, hands] = await Promise.all([
      this.q<{
        id: string;
        player_id: string;
        bet_type: string;
        spot: string | null;
        amount: string;
      }>(
        `SELECT id, player_id, bet_type, spot, amount FROM bets WHERE round_id = $1 ORDER BY placed_at, id`,
        [row.id],
      ),
      // Dealing order: a corrected card takes the place of the card it replaced (the first row of
      // its slot), not the place of the correction, which was stored after later cards.
      this.q<{ slot: string; card: CardCode }>(
        `SELECT c.slot, c.card FROM round_cards c
          WHERE c.round_id = $1 AND c.corrected_by_id IS NULL
          ORDER BY (SELECT min(o.id) FROM round_cards o
                     WHERE o.round_id = c.round_id AND o.slot = c.slot), c.id`,
        [row.id],
      ),
      this.q<{ player_id: string; hand: string | null; action: string; automatic: boolean }>(
        `SELECT player_id, hand, action, automatic FROM decisions WHERE round_id = $1 ORDER BY id`,
        [row.id],
      ),
      this.q<{
        bet_id: string | null;
        player_id: string;
        bet_type: string;
        spot: string | null;
        stake: string;
        returned: string;
        net: string;
        outcome: string;
        rounded_down: string;
      }>(
        `SELECT bet_id, player_id, bet_type, spot, stake, returned, net, outcome, rounded_down
           FROM settlements WHERE round_id = $1 ORDER BY id`,
        [row.id],
      ),
      this.q<{
        hand: string;
        owner: string | null;
        cards: CardCode[];
        total: string;
        result: string | null;
      }>(
        `SELECT hand, owner, cards, total, result FROM round_hands WHERE round_id = $1 ORDER BY id`,
        [row.id],
      ),
    ]);
    return {
      roundId: row.id,
      game: row.game,
      shoeNumber: row.shoe_number,
      roundNumber: row.round_number,
      bets: bets.map((b) => ({
        id: b.id,
        playerId: b.player_id,
        betType: b.bet_type,
        spot: b.spot,
        amount: Number(b.amount),
      })),
      cards,
      decisions: decisions.map((d) => ({
        playerId: d.player_id,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
      })),
      settlements: settlements.map((s) => ({
        betId: s.bet_id,
        playerId: s.player_id,
        betType: s.bet_type,
        spot: s.spot,
        stake: Number(s.stake),
        returned: Number(s.returned),
        net: Number(s.net),
        outcome: s.outcome,
        roundedDown: s.rounded_down,
      })),
      hands: hands.map((h) => ({
        hand: h.hand,
        owner: h.owner,
        cards: h.cards,
        total: h.total,
        result: h.result,
      })),
    };
  }

  /** A dealt card must be the card its raw reading decoded to (corrections aside). */
  private async readingMismatches(roundId: string): Promise<ReplayMismatch[]> {
    const rows = await this.q<{ slot: string; card: string; decoded: string | null }>(
      `SELECT c.slot, c.card, s.decoded->>'code' AS decoded
         FROM round_cards c JOIN scanner_readings s ON s.id = c.reading_id
        WHERE c.round_id = $1 AND c.reading_id IS NOT NULL AND c.correction_reason IS NULL
          AND s.kind = 'card'
        ORDER BY c.id`,
      [roundId],
    );
    return rows
      .filter((r) => r.decoded !== null && r.decoded !== r.card)
      .map((r) => ({ field: `card ${r.slot} reading`, stored: r.card, replayed: r.decoded }));
  }
}
