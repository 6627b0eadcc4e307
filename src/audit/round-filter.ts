import type { RoundFilter } from '../history/reader/rounds.reader';
import { textParams, timeRange } from './audit-params';
import { AuditRequestError } from './audit-query';

export type { RoundFilter };

export const SEARCHABLE_STATUSES = ['in-progress', 'paused', 'completed', 'voided'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Query string of GET /audit/rounds (and of the export), as received. */
export interface RoundSearchParams {
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

const FILTER_TEXT = ['tableId', 'game', 'status', 'shoeId', 'playerId'] as const;
/** Every parameter a round search reads. */
export const ROUND_SEARCH_PARAMS: readonly string[] = [
  ...FILTER_TEXT,
  'from',
  'to',
  'limit',
  'cursor',
];

/** A round filter from a query string, every value checked before it reaches SQL. */
export function parseRoundFilter(q: RoundSearchParams): RoundFilter {
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
