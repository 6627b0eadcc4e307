import { commandIdOfKey, playerOfKey } from '../../common/player-key';
import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

/** One line of a platform's settlement report: a UTC day, a table and a currency. */
export interface SettlementReportLine {
  day: string;
  tableId: string;
  currency: string;
  rounds: number;
  bets: number;
  stake: number;
  /** What settled bets returned to players (stake + winnings), refunds apart. */
  payout: number;
  /**
   * What voided rounds gave back (`void-refund`; `void` in Infinite Blackjack rows stored before
   * migration VoidedInfiniteBetsRefunded).
   */
  refunds: number;
  /**
   * Parts of bets taken back by their platform while betting was open (`cancelled` rows: one per
   * entry of a BetCancelled's `parts`, a side bet apart, as `bets` counts them): counted here
   * only, never in rounds, bets, stake, payout or net (their stake went back whole).
   */
  cancellations: number;
  /**
   * What those cancellations gave back (the sum of their BetCancelled's `returned`, each part's
   * whole stake: at Pok Deng a Player N bet's deposit too), in minor units: beside `stake`, never
   * in it, nor in payout, refunds or net.
   */
  cancelledStake: number;
  /**
   * The players' result: payout + refunds - stake (negative: the platform's players lost). A
   * refund's net is 0 (stake and refund are both counted); cancellations are not in it at all.
   */
  net: number;
}

/** A table's rounds still in progress that hold the platform's bets not yet settled. */
export interface OpenRounds {
  tableId: string;
  rounds: number;
}

/** A round as one platform may see it for a dispute: its own players only. */
export interface PlatformRound {
  roundId: string;
  tableId: string;
  game: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
  bets: Record<string, unknown>[];
  decisions: Record<string, unknown>[];
  settlements: Record<string, unknown>[];
}

/** A row's player key as that platform names its player (the key never leaves the studio). */
const bare = (key: string) => playerOfKey(key).playerId;

/**
 * The history as one platform may read it: rows filtered by the stored `platform_id` in SQL, so
 * another platform's players, bets and money are never read, let alone answered.
 */
export class PlatformRecordsReader {
  constructor(private readonly q: HistoryQuery) {}

  /**
   * Settlements of the platform's players settled on [from, to) (UTC days), per day, table and
   * currency: the settlement row's own (its bet's), so amounts of different currencies are never
   * added together.
   */
  async settlementReport(
    platformId: string,
    from: Date,
    to: Date,
  ): Promise<SettlementReportLine[]> {
    const rows = await this.q<Record<string, string>>(
      `SELECT to_char(date_trunc('day', s.settled_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
              r.table_id,
              s.currency,
              count(DISTINCT s.round_id) FILTER (WHERE s.outcome <> 'cancelled') AS rounds,
              count(*) FILTER (WHERE s.outcome <> 'cancelled') AS bets,
              COALESCE(sum(s.stake) FILTER (WHERE s.outcome <> 'cancelled'), 0) AS stake,
              COALESCE(sum(s.returned) FILTER (WHERE s.outcome NOT IN ('void-refund', 'void', 'cancelled')), 0) AS payout,
              COALESCE(sum(s.returned) FILTER (WHERE s.outcome IN ('void-refund', 'void')), 0) AS refunds,
              count(*) FILTER (WHERE s.outcome = 'cancelled') AS cancellations,
              COALESCE(sum(s.returned) FILTER (WHERE s.outcome = 'cancelled'), 0) AS cancelled_stake,
              COALESCE(sum(s.net) FILTER (WHERE s.outcome <> 'cancelled'), 0) AS net
         FROM settlements s
         JOIN rounds r ON r.id = s.round_id
        WHERE s.platform_id = $1 AND s.settled_at >= $2 AND s.settled_at < $3
        GROUP BY 1, 2, 3
        ORDER BY 1, 2, 3`,
      [platformId, from, to],
    );
    return rows.map((r) => ({
      day: r.day,
      tableId: r.table_id,
      currency: r.currency.trim(),
      rounds: Number(r.rounds),
      bets: Number(r.bets),
      stake: Number(r.stake),
      payout: Number(r.payout),
      refunds: Number(r.refunds),
      cancellations: Number(r.cancellations),
      cancelledStake: Number(r.cancelled_stake),
      net: Number(r.net),
    }));
  }

  /**
   * Per table, the rounds started on [from, to) still in progress or paused (neither completed
   * nor voided) that hold one of the platform's bets still `accepted` (neither settled, refunded
   * nor cancelled): its players' stakes there are still to be settled, so the report of those
   * days is not final. A round where the platform has no bet, or only cancelled ones, changes
   * nothing of its own.
   */
  async openRounds(platformId: string, from: Date, to: Date): Promise<OpenRounds[]> {
    const rows = await this.q<{ table_id: string; rounds: string }>(
      `SELECT r.table_id, count(*) AS rounds
         FROM rounds r
        WHERE r.started_at >= $2 AND r.started_at < $3
          AND r.status IN ('in-progress', 'paused')
          AND EXISTS (SELECT 1 FROM bets b
                       WHERE b.round_id = r.id AND b.platform_id = $1 AND b.status = 'accepted')
        GROUP BY 1
        ORDER BY 1`,
      [platformId, from, to],
    );
    return rows.map((r) => ({ tableId: r.table_id, rounds: Number(r.rounds) }));
  }

  /** The round with the platform's own bets, decisions and settlements; undefined if it had none. */
  async round(platformId: string, roundId: string): Promise<PlatformRound | undefined> {
    const [round] = await this.q<{
      id: string;
      table_id: string;
      game: string;
      status: string;
      started_at: Date;
      ended_at: Date | null;
    }>(
      `SELECT id, table_id, game, status, started_at, ended_at FROM rounds r
        WHERE id = $2 AND EXISTS (SELECT 1 FROM bets b WHERE b.round_id = r.id AND b.platform_id = $1)`,
      [platformId, roundId],
    );
    if (!round) return undefined;
    const [bets, decisions, settlements] = await Promise.all([
      this.q<Record<string, string>>(
        `SELECT id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at
           FROM bets WHERE round_id = $2 AND platform_id = $1 ORDER BY placed_at, placement`,
        [platformId, roundId],
      ),
      this.q<Record<string, string>>(
        `SELECT player_id, hand, action, automatic, command_id, decided_at
           FROM decisions WHERE round_id = $2 AND platform_id = $1 ORDER BY id`,
        [platformId, roundId],
      ),
      this.q<Record<string, string>>(
        `SELECT bet_id, player_id, bet_type, spot, stake, returned, net, currency, outcome, settled_at
           FROM settlements WHERE round_id = $2 AND platform_id = $1 ORDER BY id`,
        [platformId, roundId],
      ),
    ]);
    return {
      roundId: round.id,
      tableId: round.table_id,
      game: round.game,
      status: round.status,
      startedAt: iso(round.started_at)!,
      endedAt: iso(round.ended_at),
      bets: bets.map((b) => ({
        betId: b.id,
        playerId: bare(b.player_id),
        commandId: b.command_id === null ? null : commandIdOfKey(b.command_id),
        betType: b.bet_type,
        spot: b.spot,
        amount: Number(b.amount),
        deducted: Number(b.deducted),
        currency: b.currency.trim(),
        status: b.status,
        placedAt: iso(b.placed_at),
      })),
      decisions: decisions.map((d) => ({
        playerId: bare(d.player_id),
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
        commandId: d.command_id === null ? null : commandIdOfKey(d.command_id),
        decidedAt: iso(d.decided_at),
      })),
      settlements: settlements.map((s) => ({
        betId: s.bet_id,
        playerId: bare(s.player_id),
        betType: s.bet_type,
        spot: s.spot,
        stake: Number(s.stake),
        returned: Number(s.returned),
        net: Number(s.net),
        currency: s.currency.trim(),
        outcome: s.outcome,
        settledAt: iso(s.settled_at),
      })),
    };
  }
}
