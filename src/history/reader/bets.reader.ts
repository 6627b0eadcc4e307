import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

export interface BetRecord {
  betId: string;
  playerId: string;
  commandId: string | null;
  betType: string;
  spot: string | null;
  amount: number;
  deducted: number;
  currency: string;
  status: string;
  placedAt: string;
}

export interface DecisionRecord {
  playerId: string;
  hand: string | null;
  action: string;
  automatic: boolean;
  commandId: string | null;
  decidedAt: string;
  /** The decision window it was taken in (Infinite Blackjack); null for other games. */
  window: number | null;
}

export interface SettlementRecord {
  roundId: string;
  betId: string | null;
  playerId: string;
  betType: string;
  spot: string | null;
  stake: number;
  returned: number;
  net: number;
  outcome: string;
  roundedDown: string;
  settledAt: string;
  /** The currency the bet was settled in (its own: never converted). */
  currency: string;
}

/** One of a player's bets with its round and its settlement, if it has one. */
export interface PlayerBetRecord {
  betId: string;
  roundId: string;
  tableId: string;
  game: string;
  roundStatus: string;
  betType: string;
  spot: string | null;
  amount: number;
  deducted: number;
  currency: string;
  status: string;
  placedAt: string;
  settlement: { returned: number; net: number; outcome: string; roundedDown: string } | null;
  /** Keyset position of the bet: PostgreSQL's text of placed_at and the bet id. */
  key: { at: string; id: string };
}

interface SettlementRow {
  round_id: string;
  bet_id: string | null;
  player_id: string;
  bet_type: string;
  spot: string | null;
  stake: string;
  returned: string;
  net: string;
  outcome: string;
  rounded_down: string;
  settled_at: Date;
  currency: string;
}

const settlement = (s: SettlementRow): SettlementRecord => ({
  roundId: s.round_id,
  betId: s.bet_id,
  playerId: s.player_id,
  betType: s.bet_type,
  spot: s.spot,
  stake: Number(s.stake),
  returned: Number(s.returned),
  net: Number(s.net),
  outcome: s.outcome,
  roundedDown: s.rounded_down,
  settledAt: iso(s.settled_at)!,
  // char(3): trimmed in case of padding.
  currency: s.currency.trim(),
});

const SETTLEMENT_COLUMNS = `round_id, bet_id, player_id, bet_type, spot, stake, returned, net,
  outcome, rounded_down, settled_at, currency`;

/** bets, decisions and settlements. */
export class BetsReader {
  constructor(private readonly q: HistoryQuery) {}

  /** The round's bets in the order they were placed. */
  async ofRound(roundId: string): Promise<BetRecord[]> {
    const rows = await this.q<{
      id: string;
      player_id: string;
      command_id: string | null;
      bet_type: string;
      spot: string | null;
      amount: string;
      deducted: string;
      currency: string;
      status: string;
      placed_at: Date;
    }>(
      `SELECT id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at
         FROM bets WHERE round_id = $1 ORDER BY placed_at, placement`,
      [roundId],
    );
    return rows.map((b) => ({
      betId: b.id,
      playerId: b.player_id,
      commandId: b.command_id,
      betType: b.bet_type,
      spot: b.spot,
      amount: Number(b.amount),
      deducted: Number(b.deducted),
      currency: b.currency,
      status: b.status,
      placedAt: iso(b.placed_at)!,
    }));
  }

  /** The round's decisions in the order taken (automatic ones marked). */
  async decisionsOfRound(roundId: string): Promise<DecisionRecord[]> {
    const rows = await this.q<{
      player_id: string;
      hand: string | null;
      action: string;
      automatic: boolean;
      command_id: string | null;
      decided_at: Date;
      decision_window: number | null;
    }>(
      `SELECT player_id, hand, action, automatic, command_id, decided_at, decision_window
         FROM decisions WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
    return rows.map((d) => ({
      playerId: d.player_id,
      hand: d.hand,
      action: d.action,
      automatic: d.automatic,
      commandId: d.command_id,
      decidedAt: iso(d.decided_at)!,
      window: d.decision_window,
    }));
  }

  async settlementsOfRound(roundId: string): Promise<SettlementRecord[]> {
    const rows = await this.q<SettlementRow>(
      `SELECT ${SETTLEMENT_COLUMNS} FROM settlements WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
    return rows.map(settlement);
  }

  /** The settlements of several rounds (the refunds of voided rounds), in the order stored. */
  async settlementsOfRounds(roundIds: readonly string[]): Promise<SettlementRecord[]> {
    if (roundIds.length === 0) return [];
    const rows = await this.q<SettlementRow>(
      `SELECT ${SETTLEMENT_COLUMNS} FROM settlements WHERE round_id = ANY($1::uuid[]) ORDER BY id`,
      [roundIds],
    );
    return rows.map(settlement);
  }

  /** Up to `limit` of a player's bets in [from, to) after the keyset, newest first. */
  async ofPlayer(
    playerId: string,
    range: { from?: Date; to?: Date },
    after: { at: string; id: string } | undefined,
    limit: number,
  ): Promise<PlayerBetRecord[]> {
    const rows = await this.q<{
      id: string;
      round_id: string;
      table_id: string;
      game: string;
      round_status: string;
      bet_type: string;
      spot: string | null;
      amount: string;
      deducted: string;
      currency: string;
      status: string;
      placed_at: Date;
      placed_key: string;
      returned: string | null;
      net: string | null;
      outcome: string | null;
      rounded_down: string | null;
    }>(
      `SELECT b.id, b.round_id, b.table_id, r.game, r.status AS round_status, b.bet_type, b.spot,
              b.amount, b.deducted, b.currency, b.status, b.placed_at, b.placed_at::text AS placed_key,
              s.returned, s.net, s.outcome, s.rounded_down
         FROM bets b
         JOIN rounds r ON r.id = b.round_id
         LEFT JOIN LATERAL (
           SELECT returned, net, outcome, rounded_down FROM settlements
            WHERE round_id = b.round_id AND bet_id = b.id ORDER BY id LIMIT 1) s ON true
        WHERE b.player_id = $1
          AND ($2::timestamptz IS NULL OR b.placed_at >= $2)
          AND ($3::timestamptz IS NULL OR b.placed_at < $3)
          AND ($4::timestamptz IS NULL OR (b.placed_at, b.id) < ($4::timestamptz, $5::text))
        ORDER BY b.placed_at DESC, b.id DESC LIMIT ${Math.trunc(limit)}`,
      [playerId, range.from ?? null, range.to ?? null, after?.at ?? null, after?.id ?? null],
    );
    return rows.map((b) => ({
      betId: b.id,
      roundId: b.round_id,
      tableId: b.table_id,
      game: b.game,
      roundStatus: b.round_status,
      betType: b.bet_type,
      spot: b.spot,
      amount: Number(b.amount),
      deducted: Number(b.deducted),
      currency: b.currency,
      status: b.status,
      placedAt: iso(b.placed_at)!,
      settlement:
        b.outcome === null
          ? null
          : {
              returned: Number(b.returned),
              net: Number(b.net),
              outcome: b.outcome,
              roundedDown: b.rounded_down ?? '0',
            },
      key: { at: b.placed_key, id: b.id },
    }));
  }
}
