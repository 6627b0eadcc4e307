import { AuditRequestError } from './audit-query';

/**
 * Keyset pagination: a page ends at (time, id) of its last row and the next page starts strictly
 * after it, so a page costs the same however deep it is and rows added meanwhile never shift it.
 * The time is PostgreSQL's own text of the timestamptz (microseconds, with offset), so nothing is
 * lost through a JavaScript Date.
 */
export interface Keyset {
  at: string;
  id: string;
}

/** timestamptz as PostgreSQL prints it: `2026-11-29 12:00:00.123456+00`. */
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

export function encodeCursor(key: Keyset): string {
  return Buffer.from(JSON.stringify([key.at, key.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Keyset | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      PG_TIMESTAMP.test(value[0]) &&
      value[1].length <= 200
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw new AuditRequestError('bad-request', 'cursor is not one this API returned');
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export function pageSize(limit: string | number | undefined): number {
  if (limit === undefined || limit === '') return DEFAULT_PAGE_SIZE;
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
    throw new AuditRequestError(
      'bad-request',
      `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    );
  }
  return n;
}

export function parseTime(name: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) {
    throw new AuditRequestError('bad-request', `${name} must be an ISO 8601 time (got "${value}")`);
  }
  return new Date(t);
}
