import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Keyset } from '../history/reader/rounds.reader';
import { textParam, timeParam } from './audit-params';
import { AuditRequestError } from './audit-query';

export type { Keyset };

/**
 * Keyset pagination: a page ends at (time, id) of its last row and the next page starts strictly
 * after it, so a page costs the same however deep it is and rows added meanwhile never shift it.
 * The time is PostgreSQL's own text of the timestamptz (microseconds, with offset), so nothing is
 * lost through a JavaScript Date.
 *
 * A cursor is `<payload>.<mac>`: the payload is base64url JSON `[time, id]`, the mac an
 * HMAC-SHA256 (first 16 bytes, base64url) over the listing's name and the payload, keyed with the
 * service's cursor key (CURSOR_SIGNING_KEY or the one stored at first start, shared by every
 * instance). An edited cursor, one of another listing and one made up are all `invalid-cursor`.
 */

/** The paginated listings: each one's cursors are signed for it alone. */
export type CursorListing = 'rounds' | 'player-bets';

/** What a listing's cursor id must look like: a round's uuid, or a bet id (any valid text). */
const LISTING_IDS: Record<CursorListing, 'uuid' | 'text'> = {
  rounds: 'uuid',
  'player-bets': 'text',
};

/** Shortest key accepted: 256 bits, the HMAC-SHA256 block's worth of secret. */
export const MIN_CURSOR_KEY_BYTES = 32;
const MAC_BYTES = 16;

/** timestamptz as PostgreSQL prints it: `2026-11-29 12:00:00.123456+00`. */
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class KeysetCursors {
  constructor(private readonly key: Buffer) {
    if (key.length < MIN_CURSOR_KEY_BYTES) {
      throw new Error(`a cursor key needs at least ${MIN_CURSOR_KEY_BYTES} bytes`);
    }
  }

  encode(listing: CursorListing, key: Keyset): string {
    const payload = Buffer.from(JSON.stringify([key.at, key.id]), 'utf8').toString('base64url');
    return `${payload}.${this.mac(listing, payload).toString('base64url')}`;
  }

  /**
   * The keyset a cursor names, or undefined for none. Anything this API did not hand out for this
   * listing (a wrong mac, garbled base64, other JSON, a time that is not a real time, an id of the
   * wrong kind) is an `invalid-cursor`, never a query that fails in the database.
   */
  decode(listing: CursorListing, cursor: unknown): Keyset | undefined {
    const text = textParam('cursor', cursor);
    if (text === undefined) return undefined;
    const refused = new AuditRequestError('invalid-cursor', 'cursor is not one this API returned');
    const [payload, mac, ...rest] = text.split('.');
    if (mac === undefined || rest.length > 0 || !this.signed(listing, payload, mac)) throw refused;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
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
      !validId(value[1], LISTING_IDS[listing])
    ) {
      throw refused;
    }
    return { at: value[0], id: value[1] };
  }

  private mac(listing: CursorListing, payload: string): Buffer {
    return createHmac('sha256', this.key)
      .update(`${listing}\n${payload}`)
      .digest()
      .subarray(0, MAC_BYTES);
  }

  private signed(listing: CursorListing, payload: string, mac: string): boolean {
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(listing, payload);
    // base64url decoding skips stray characters: compare the text too, so one cursor has one form.
    return (
      given.length === expected.length &&
      timingSafeEqual(given, expected) &&
      given.toString('base64url') === mac
    );
  }
}

function validTime(at: string): boolean {
  try {
    return timeParam('cursor', at) !== undefined;
  } catch {
    return false;
  }
}

function validId(value: string, id: 'uuid' | 'text'): boolean {
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
  // Digits only: Number() would also take "1e2", "0x10", " 10" and "010" for a page size.
  const n = /^[1-9][0-9]{0,5}$/.test(limit) ? Number(limit) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
    throw new AuditRequestError(
      'bad-request',
      `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    );
  }
  return n;
}
