/** Runs one SQL statement (a DataSource's query, bound by the module that builds the reader). */
export type HoldQuery = <T = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<T[]>;

/**
 * What one completed round staked and won, per currency and bet type (money in integer minor
 * units of that currency: amounts of two currencies are never added together).
 */
export interface RoundStakes {
  roundId: string;
  endedAt: string;
  currency: string;
  betType: string;
  /** Sum of the settlements' stakes: what was deducted (a Pok Deng Player bet's deposit too). */
  stake: number;
  /** Sum of returned − deducted: the players' gain (negative: the house's). */
  net: number;
}

export interface HourlyRounds {
  tableId: string;
  /** Start of the hour (UTC). */
  hour: string;
  rounds: number;
}

export interface ScannerCounts {
  tableId: string;
  /** Readings that carried a card. */
  cards: number;
  /** Readings the reader could not recognise (each one made the dealer rescan). */
  unrecognised: number;
  /** Times the reader went disconnected or stale. */
  outages: number;
}

const HOUR_MS = 3_600_000;

/** The first UTC hour that starts at or after `since`: from it on, hours are counted whole. */
const firstWholeHour = (since: Date): Date =>
  new Date(Math.ceil(since.getTime() / HOUR_MS) * HOUR_MS);

const BIGINT_SAFE = (value: string | number, what: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`${what} ${value} is not a safe integer`);
  return n;
};

/**
 * The history as live hold monitoring reads it: stakes and results of a table's last rounds, the
 * rounds completed per hour, and what the scanners did. Read-only; every figure is an aggregate.
 */
export class HoldStatisticsReader {
  constructor(private readonly query: HoldQuery) {}

  /**
   * The last `limit` completed rounds of a table that had bets, with stake and net per currency
   * and bet type.
   * Voided rounds are left out: their bets were refunded and say nothing about the game's return;
   * so are cancelled bets (taken back by their platform before the deal: never played). Read from
   * round_stakes, the settlements summed per round as they are written: a few rows a round, however
   * many bets it had.
   */
  async lastRounds(tableId: string, limit: number): Promise<RoundStakes[]> {
    return (await this.lastRoundsOf([tableId], limit)).get(tableId) ?? [];
  }

  /**
   * `lastRounds` of several tables in one statement (the hold report reads every table's): one
   * round trip and one pooled connection, however many tables.
   */
  async lastRoundsOf(
    tableIds: readonly string[],
    limit: number,
  ): Promise<Map<string, RoundStakes[]>> {
    const rows = await this.query<{
      table_id: string;
      round_id: string;
      ended_at: Date;
      currency: string;
      bet_type: string;
      stake: string;
      net: string;
    }>(
      `SELECT t.table_id, recent.id AS round_id, recent.ended_at, s.currency, s.bet_type,
              s.stake::text AS stake, s.net::text AS net
         FROM unnest($1::text[]) AS t(table_id)
         CROSS JOIN LATERAL (
           SELECT r.id, r.ended_at FROM rounds r
            WHERE r.table_id = t.table_id AND r.status = 'completed'
              AND EXISTS (SELECT 1 FROM round_stakes s WHERE s.round_id = r.id)
            ORDER BY r.ended_at DESC, r.id DESC
            LIMIT $2) recent
         -- Looked up round by round (OFFSET 0 keeps the planner from joining round_stakes
         -- whole): the cost follows the rounds read, however long the history.
         CROSS JOIN LATERAL (SELECT currency, bet_type, stake, net FROM round_stakes
                              WHERE round_id = recent.id OFFSET 0) s
        ORDER BY t.table_id, recent.ended_at, recent.id, s.currency, s.bet_type`,
      [tableIds, limit],
    );
    const byTable = new Map<string, RoundStakes[]>(tableIds.map((id) => [id, []]));
    for (const r of rows) {
      byTable.get(r.table_id)!.push({
        roundId: r.round_id,
        endedAt: new Date(r.ended_at).toISOString(),
        currency: r.currency.trim(),
        betType: r.bet_type,
        stake: BIGINT_SAFE(r.stake, 'stake'),
        net: BIGINT_SAFE(r.net, 'net'),
      });
    }
    return byTable;
  }

  /**
   * Completed rounds per table and hour since `since` (hours without rounds are absent). Whole
   * hours come from their counts (round_hours, kept by triggers on rounds), the window's first,
   * partial hour from its rounds: the cost follows the tables, not the day's rounds.
   */
  async roundsPerHour(since: Date): Promise<HourlyRounds[]> {
    const wholeHours = firstWholeHour(since);
    const rows = await this.query<{ table_id: string; hour: string; rounds: number }>(
      `SELECT table_id,
              to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour, rounds
         FROM (SELECT table_id, date_trunc('hour', ended_at, 'UTC') AS at, count(*)::int AS rounds
                 FROM rounds
                WHERE status = 'completed' AND ended_at >= $1 AND ended_at < $2
                GROUP BY 1, 2
               UNION ALL
               SELECT table_id, hour, completed FROM round_hours
                WHERE hour >= $2 AND completed > 0) counted
        ORDER BY table_id, at`,
      [since, wholeHours],
    );
    return rows.map((r) => ({
      tableId: r.table_id,
      hour: r.hour,
      rounds: r.rounds,
    }));
  }

  /**
   * Per table since `since`: cards read, unrecognised readings and scanner outages. The readings
   * of whole hours come from their hourly counts (scanner_reading_hours, kept by a trigger as
   * they are stored), those of the window's first, partial hour are counted one by one: the cost
   * follows the tables, not the day's ~1.5 million readings of a 100-table studio.
   */
  async scannerCounts(since: Date): Promise<ScannerCounts[]> {
    const wholeHours = firstWholeHour(since);
    const rows = await this.query<{
      table_id: string;
      cards: number;
      unrecognised: number;
      outages: number;
    }>(
      `SELECT t.id AS table_id,
              r.cards + COALESCE(h.cards, 0) AS cards,
              r.unrecognised + COALESCE(h.unrecognised, 0) AS unrecognised,
              (SELECT count(*)::int FROM round_events e
                WHERE e.table_id = t.id AND e.type = 'ScannerStatusChanged'
                  AND e.payload->>'status' IN ('disconnected', 'stale') AND e.occurred_at >= $1)
                AS outages
         FROM studio_tables t
        CROSS JOIN LATERAL (
              SELECT count(*) FILTER (WHERE kind = 'card')::int AS cards,
                     count(*) FILTER (WHERE kind = 'unrecognised')::int AS unrecognised
                FROM scanner_readings
               WHERE table_id = t.id AND received_at >= $1 AND received_at < $2) r
        CROSS JOIN LATERAL (
              SELECT sum(cards)::int AS cards, sum(unrecognised)::int AS unrecognised
                FROM scanner_reading_hours
               WHERE table_id = t.id AND hour >= $2) h
        ORDER BY t.id`,
      [since, wholeHours],
    );
    return rows.map((r) => ({
      tableId: r.table_id,
      cards: r.cards,
      unrecognised: r.unrecognised,
      outages: r.outages,
    }));
  }
}
