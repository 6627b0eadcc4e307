import type { Keyset } from '../history/reader/rounds.reader';
import { textParam, timeParam } from './audit-params';
import { AuditRequestError } from './audit-query';

export type { Keyset };

/**
 * Keyset pagination: a page ends at (time, id) of its last row and the next page starts strictly
 * after it, so a page costs the same however deep it is and rows added meanwhile never shift it.
 * The time is PostgreSQL's own text of the timestamptz (microseconds, with offset), so nothing is
 * lost through a JavaScript Date.
 */

/** timestamptz as PostgreSQL prints it: `2026-11-29 12:00:00.123456+00`. */
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

export function encodeCursor(key: Keyset): string {
  return Buffer.from(JSON.stringify([key.at, key.id]), 'utf8').toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a cursor's id must look like: a round's uuid, or a bet id (any valid text). */
export type CursorId = 'uuid' | 'text';

/**
 * The keyset a cursor names, or undefined for none. Anything this API did not hand out (garbled
 * base64, other JSON, a time that is not a real time, an id of the wrong kind) is an
 * `invalid-cursor`, never a query that fails in the database.
 */
export function decodeCursor(cursor: unknown, id: CursorId = 'text'): Keyset | undefined {
  const text = textParam('cursor', cursor);
  if (text === undefined) return undefined;
  const refused = new AuditRequestError('invalid-cursor', 'cursor is not one this API returned');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    !PG_TIMESTAMP.test(value[0]) ||
    !validTime(value[0]) ||
    !validId(value[1], id)
  ) {
    throw refused;
  }
  return { at: value[0], id: value[1] };
}

function validTime(at: string): boolean {
  try {
    return timeParam('cursor', at) !== undefined;
  } catch {
    return false;
  }
}

function validId(value: string, id: CursorId): boolean {
  try {
    return textParam('cursor', value) !== undefined && (id === 'text' || UUID.test(value));
  } catch {
    return false;
  }
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export function pageSize(value: unknown): number {
  const limit = textParam('limit', value);
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
    throw new AuditRequestError(
      'bad-request',
      `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    );
  }
  return n;
}
