import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

/** Filters of a round search, already validated. */
export interface RoundFilter {
  tableId?: string;
  game?: string;
  from?: Date;
  to?: Date;
  status?: string;
  shoeId?: string;
  playerId?: string;
}

/** Keyset position: PostgreSQL's own text of the timestamptz (no precision lost) and the id. */
export interface Keyset {
  at: string;
  id: string;
}

export interface RoundSummary {
  id: string;
  tableId: string;
  game: string;
  shoeId: string | null;
  shoeNumber: number;
  roundNumber: number;
  status: string;
  phase: string;
  startedAt: string;
  endedAt: string | null;
  voidReason: string | null;
}

/** A round with where its time window is, for reads that follow it (readings of the table). */
export interface RoundRecord extends RoundSummary {
  /** Keyset position of the round. */
  key: Keyset;
  /** Exact bounds of the round, as Dates, for the readings of its table. */
  startedAtValue: Date;
  endedAtValue: Date | null;
}

/** What replay needs of a round: the rules it was played under. */
export interface ReplayRound {
  id: string;
  tableId: string;
  game: string;
  status: string;
  shoeNumber: number;
  roundNumber: number;
  configuration: Record<string, unknown>;
  currency: string;
  /** Why the round was voided, as the rounds row says (null unless voided). */
  voidReason: string | null;
  /** The rounds row's start and end (ISO 8601), checked against the chain. */
  startedAt: string | null;
  endedAt: string | null;
  key: Keyset;
}

/**
 * A round with its settlement totals of one platform in one currency, one line of an export (a
 * round without settlements: one line, platform and currency null). Amounts of different
 * currencies or platforms are never added together.
 */
export interface RoundTotals extends RoundSummary {
  key: Keyset;
  platformId: string | null;
  currency: string | null;
  bets: number;
  staked: number;
  returned: number;
  net: number;
}

const ROUND_COLUMNS = `r.id, r.table_id, r.game, r.shoe_id, r.shoe_number, r.round_number,
  r.status, r.phase, r.started_at, r.ended_at, r.void_reason, r.started_at::text AS started_key`;

interface RoundRow {
  id: string;
  table_id: string;
  game: string;
  shoe_id: string | null;
  shoe_number: number;
  round_number: number;
  status: string;
  phase: string;
  started_at: Date;
  ended_at: Date | null;
  void_reason: string | null;
  started_key: string;
}

function roundRecord(r: RoundRow): RoundRecord {
  return {
    id: r.id,
    tableId: r.table_id,
    game: r.game,
    shoeId: r.shoe_id,
    shoeNumber: r.shoe_number,
    roundNumber: r.round_number,
    status: r.status,
    phase: r.phase,
    startedAt: iso(r.started_at)!,
    endedAt: iso(r.ended_at),
    voidReason: r.void_reason,
    key: { at: r.started_key, id: r.id },
    startedAtValue: r.started_at,
    endedAtValue: r.ended_at,
  };
}

/** Adds a value to `params` and gives its placeholder (`$n`). */
function binder(params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/** The WHERE clause of a round filter plus a keyset bound, with its parameters. */
export function roundWhere(
  filter: RoundFilter,
  after: Keyset | undefined,
  direction: 'desc' | 'asc',
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const p = binder(params);
  if (filter.tableId) clauses.push(`r.table_id = ${p(filter.tableId)}`);
  if (filter.game) clauses.push(`r.game = ${p(filter.game)}`);
  if (filter.status) clauses.push(`r.status = ${p(filter.status)}`);
  if (filter.shoeId) clauses.push(`r.shoe_id = ${p(filter.shoeId)}::uuid`);
  if (filter.from) clauses.push(`r.started_at >= ${p(filter.from)}`);
  if (filter.to) clauses.push(`r.started_at < ${p(filter.to)}`);
  if (filter.playerId) {
    clauses.push(
      `r.id IN (SELECT b.round_id FROM bets b WHERE b.player_id = ${p(filter.playerId)})`,
    );
  }
  if (after) {
    const op = direction === 'desc' ? '<' : '>';
    clauses.push(`(r.started_at, r.id) ${op} (${p(after.at)}::timestamptz, ${p(after.id)}::uuid)`);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * How many of a player's newest bets a search naming the player reads before it falls back to
 * all of them: a page of rounds needs a few bets a round, a player of years has tens of thousands.
 */
const PLAYER_BET_WINDOWS = [256, 4_096];

/** How far before its round's start a bet may be stamped (a clock stepped back). */
const CLOCK_STEP = `interval '1 minute'`;

/** Rounds: search, one round, the rounds replay walks through and the export's lines. */
export class RoundsReader {
  constructor(
    private readonly q: HistoryQuery,
    private readonly playerBetWindows: readonly number[] = PLAYER_BET_WINDOWS,
  ) {}

  /** Up to `limit` rounds of the filter after the keyset, newest first. */
  async search(filter: RoundFilter, after: Keyset | undefined, limit: number) {
    if (filter.playerId) {
      for (const bets of this.playerBetWindows) {
        const found = await this.searchPlayerWindow(filter, after, limit, bets);
        if (found) return found;
      }
    }
    const where = roundWhere(filter, after, 'desc');
    const rows = await this.q<RoundRow>(
      `SELECT ${ROUND_COLUMNS} FROM rounds r ${where.sql}
        ORDER BY r.started_at DESC, r.id DESC LIMIT ${Math.trunc(limit)}`,
      where.params,
    );
    return rows.map(roundRecord);
  }

  /**
   * A player's rounds from the player's newest `bets` bets only (an index range, however long the
   * player's history), or undefined when those cannot prove the page. A round's bets are placed
   * after it starts, so every bet of a round that started after the oldest bet read (less a
   * minute for a clock stepped back) was read: rounds started after that edge are all found, and
   * a full page of them is the page. Fewer bets than asked for are the player's whole history.
   */
  private async searchPlayerWindow(
    filter: RoundFilter,
    after: Keyset | undefined,
    limit: number,
    bets: number,
  ): Promise<RoundRecord[] | undefined> {
    const where = roundWhere({ ...filter, playerId: undefined }, after, 'desc');
    const p = binder(where.params);
    const player = p(filter.playerId);
    // Bets of rounds started from `from` on were placed from then on, less the same step.
    const from = filter.from
      ? `AND placed_at >= ${p(filter.from)}::timestamptz - ${CLOCK_STEP}`
      : '';
    const window = p(bets);
    const pageSize = Math.trunc(limit);
    const rows = await this.q<RoundRow & { read: number }>(
      `WITH b AS (
         SELECT round_id, placed_at FROM bets WHERE player_id = ${player} ${from}
          ORDER BY placed_at DESC LIMIT ${window}),
       edge AS (SELECT count(*)::int AS read, min(placed_at) - ${CLOCK_STEP} AS at FROM b)
       SELECT edge.read, page.* FROM edge LEFT JOIN LATERAL (
         SELECT ${ROUND_COLUMNS} FROM rounds r
           ${where.sql ? `${where.sql} AND` : 'WHERE'} r.id IN (SELECT round_id FROM b)
            AND (edge.read < ${window} OR r.started_at > edge.at)
          ORDER BY r.started_at DESC, r.id DESC LIMIT ${pageSize}) page ON true`,
      where.params,
    );
    const page = rows.filter((r) => r.id !== null).map(roundRecord);
    return rows[0].read < bets || page.length === pageSize ? page : undefined;
  }

  async byId(roundId: string): Promise<RoundRecord | undefined> {
    const [row] = await this.q<RoundRow>(`SELECT ${ROUND_COLUMNS} FROM rounds r WHERE r.id = $1`, [
      roundId,
    ]);
    return row && roundRecord(row);
  }

  /** One round with the table configuration it was played under (kept with the round). */
  async forReplay(roundId: string): Promise<ReplayRound | undefined> {
    const [row] = await this.q<ReplayRow>(
      `SELECT ${REPLAY_COLUMNS} FROM rounds r JOIN studio_tables t ON t.id = r.table_id
        WHERE r.id = $1`,
      [roundId],
    );
    return row && replayRound(row);
  }

  /** Up to `limit` rounds started in [from, to) after the keyset, oldest first, for replay. */
  async forReplayBetween(
    range: { from: Date; to: Date; tableId?: string },
    after: Keyset | undefined,
    limit: number,
  ): Promise<ReplayRound[]> {
    const rows = await this.q<ReplayRow>(
      `SELECT ${REPLAY_COLUMNS} FROM rounds r JOIN studio_tables t ON t.id = r.table_id
          WHERE r.started_at >= $1 AND r.started_at < $2
            AND ($3::text IS NULL OR r.table_id = $3)
            AND ($4::timestamptz IS NULL OR (r.started_at, r.id) > ($4::timestamptz, $5::uuid))
          ORDER BY r.started_at, r.id LIMIT ${Math.trunc(limit)}`,
      [range.from, range.to, range.tableId ?? null, after?.at ?? null, after?.id ?? null],
    );
    return rows.map(replayRound);
  }

  /** How many rounds started in [from, to) (on one table), to cap what one call replays. */
  async countBetween(range: { from: Date; to: Date; tableId?: string }): Promise<number> {
    const [row] = await this.q<{ n: number }>(
      `SELECT count(*)::int AS n FROM rounds
        WHERE started_at >= $1 AND started_at < $2 AND ($3::text IS NULL OR table_id = $3)`,
      [range.from, range.to, range.tableId ?? null],
    );
    return row?.n ?? 0;
  }

  /**
   * Up to `limit` rounds of the filter after the keyset, oldest first, with their settlement
   * totals per platform and currency (one line each, so a round may give several lines).
   */
  async withTotals(
    filter: RoundFilter,
    after: Keyset | undefined,
    limit: number,
  ): Promise<RoundTotals[]> {
    const where = roundWhere(filter, after, 'asc');
    const rows = await this.q<
      RoundRow & {
        platform_id: string | null;
        currency: string | null;
        bets: number;
        staked: string | null;
        returned: string | null;
        net: string | null;
      }
    >(
      `SELECT ${ROUND_COLUMNS}, s.platform_id, s.currency, COALESCE(s.bets, 0)::int AS bets,
              s.staked, s.returned, s.net
           FROM (SELECT r.* FROM rounds r ${where.sql}
                  ORDER BY r.started_at, r.id LIMIT ${Math.trunc(limit)}) r
           LEFT JOIN LATERAL (
             SELECT platform_id, currency, count(*)::int AS bets, sum(stake) AS staked,
                    sum(returned) AS returned, sum(net) AS net
               FROM settlements WHERE round_id = r.id
              GROUP BY platform_id, currency) s ON true
          ORDER BY r.started_at, r.id, s.platform_id, s.currency`,
      where.params,
    );
    return rows.map((r) => ({
      ...roundRecord(r),
      platformId: r.platform_id,
      currency: r.currency?.trim() ?? null,
      bets: r.bets,
      staked: Number(r.staked ?? 0),
      returned: Number(r.returned ?? 0),
      net: Number(r.net ?? 0),
    }));
  }
}

const REPLAY_COLUMNS = `r.id, r.table_id, r.game, r.status, r.shoe_number, r.round_number,
  COALESCE(r.configuration, t.configuration) AS configuration, t.currency, r.void_reason,
  r.started_at, r.ended_at, r.started_at::text AS started_key`;

interface ReplayRow {
  id: string;
  table_id: string;
  game: string;
  status: string;
  shoe_number: number;
  round_number: number;
  configuration: Record<string, unknown>;
  currency: string;
  void_reason: string | null;
  started_at: Date;
  ended_at: Date | null;
  started_key: string;
}

function replayRound(r: ReplayRow): ReplayRound {
  return {
    id: r.id,
    tableId: r.table_id,
    game: r.game,
    status: r.status,
    shoeNumber: r.shoe_number,
    roundNumber: r.round_number,
    configuration: r.configuration,
    currency: r.currency,
    voidReason: r.void_reason ?? null,
    startedAt: iso(r.started_at),
    endedAt: iso(r.ended_at),
    key: { at: r.started_key, id: r.id },
  };
}

/** Only the summary fields of a round (what the API answers), without its keyset or bounds. */
export function roundSummary(r: RoundSummary): RoundSummary {
  return {
    id: r.id,
    tableId: r.tableId,
    game: r.game,
    shoeId: r.shoeId,
    shoeNumber: r.shoeNumber,
    roundNumber: r.roundNumber,
    status: r.status,
    phase: r.phase,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    voidReason: r.voidReason,
  };
}
