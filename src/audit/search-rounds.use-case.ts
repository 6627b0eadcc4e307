import { historyReader, HistorySource } from '../history/reader/history-reader';
import type { RoundFilter, RoundSummary } from '../history/reader/rounds.reader';
import { roundSummary } from '../history/reader/rounds.reader';
import { textParams, timeRange } from './audit-params';
import { AuditRequestError } from './audit-query';
import { decodeCursor, encodeCursor, pageSize } from './keyset-cursor';

export type { RoundFilter, RoundSummary };

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

export interface RoundPage {
  items: RoundSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

const FILTER_TEXT = ['tableId', 'game', 'status', 'shoeId', 'playerId'] as const;

/** A round filter from a query string, every value checked before it reaches SQL. */
export function parseRoundFilter(q: RoundSearchQuery): RoundFilter {
  const text = textParams(q, FILTER_TEXT);
  if (
    text.status !== undefined &&
    !(SEARCHABLE_STATUSES as readonly string[]).includes(text.status)
  ) {
    throw new AuditRequestError(
      'bad-request',
      `status must be one of ${SEARCHABLE_STATUSES.join(', ')}`,
    );
  }
  if (text.shoeId && !UUID.test(text.shoeId)) {
    throw new AuditRequestError('bad-request', 'shoeId must be a shoe id (uuid)');
  }
  return { ...text, ...timeRange(q) };
}

/** Rounds by table, game, time range, status, shoe and player; newest first, keyset-paginated. */
export class SearchRounds {
  constructor(private readonly source: HistorySource) {}

  async execute(query: RoundSearchQuery): Promise<RoundPage> {
    const filter = parseRoundFilter(query);
    const limit = pageSize(query.limit);
    const rows = await historyReader(this.source).rounds.search(
      filter,
      decodeCursor(query.cursor, 'uuid'),
      limit + 1,
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map(roundSummary),
      nextCursor: more && last ? encodeCursor(last.key) : null,
    };
  }
}
