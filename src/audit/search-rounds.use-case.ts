import type { AuditQuery } from './audit-query';
import { AuditRequestError } from './audit-query';
import { decodeCursor, encodeCursor, pageSize, parseTime } from './keyset-cursor';

export const SEARCHABLE_STATUSES = ['in-progress', 'paused', 'completed', 'voided'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Query string of GET /audit/rounds, as received. */
export interface RoundSearchQuery {
  tableId?: string;
  game?: string;
  from?: string;
  to?: string;
  status?: string;
  shoeId?: string;
  playerId?: string;
  limit?: string;
  cursor?: string;
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

export interface RoundPage {
  items: RoundSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface RoundFilter {
  tableId?: string;
  game?: string;
  from?: Date;
  to?: Date;
  status?: string;
  shoeId?: string;
  playerId?: string;
}

export function parseRoundFilter(q: RoundSearchQuery): RoundFilter {
  if (
    q.status !== undefined &&
    q.status !== '' &&
    !(SEARCHABLE_STATUSES as readonly string[]).includes(q.status)
  ) {
    throw new AuditRequestError(
      'bad-request',
      `status must be one of ${SEARCHABLE_STATUSES.join(', ')}`,
    );
  }
  if (q.shoeId && !UUID.test(q.shoeId)) {
    throw new AuditRequestError('bad-request', 'shoeId must be a shoe id (uuid)');
  }
  const from = parseTime('from', q.from);
  const to = parseTime('to', q.to);
  if (from && to && from >= to)
    throw new AuditRequestError('bad-request', 'from must be before to');
  return {
    tableId: q.tableId || undefined,
    game: q.game || undefined,
    from,
    to,
    status: q.status || undefined,
    shoeId: q.shoeId || undefined,
    playerId: q.playerId || undefined,
  };
}

/** The WHERE clause of a round filter plus a keyset bound, with its parameters. */
export function roundWhere(
  filter: RoundFilter,
  after: { at: string; id: string } | undefined,
  direction: 'desc' | 'asc',
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
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

export const ROUND_COLUMNS = `r.id, r.table_id, r.game, r.shoe_id, r.shoe_number, r.round_number,
  r.status, r.phase, r.started_at, r.ended_at, r.void_reason, r.started_at::text AS started_key`;

export interface RoundRow {
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

export function roundSummary(r: RoundRow): RoundSummary {
  return {
    id: r.id,
    tableId: r.table_id,
    game: r.game,
    shoeId: r.shoe_id,
    shoeNumber: r.shoe_number,
    roundNumber: r.round_number,
    status: r.status,
    phase: r.phase,
    startedAt: new Date(r.started_at).toISOString(),
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
    voidReason: r.void_reason,
  };
}

/** Rounds by table, game, time range, status, shoe and player; newest first, keyset-paginated. */
export class SearchRounds {
  constructor(private readonly q: AuditQuery) {}

  async execute(query: RoundSearchQuery): Promise<RoundPage> {
    const filter = parseRoundFilter(query);
    const limit = pageSize(query.limit);
    const where = roundWhere(filter, decodeCursor(query.cursor), 'desc');
    const rows = await this.q<RoundRow>(
      `SELECT ${ROUND_COLUMNS} FROM rounds r ${where.sql}
        ORDER BY r.started_at DESC, r.id DESC LIMIT ${limit + 1}`,
      where.params,
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map(roundSummary),
      nextCursor: more && last ? encodeCursor({ at: last.started_key, id: last.id }) : null,
    };
  }
}
