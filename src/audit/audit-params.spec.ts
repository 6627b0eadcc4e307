import { createHmac } from 'node:crypto';
import {
  MAX_REPLAY_DAYS,
  onlyKnownParams,
  replayRange,
  textParam,
  timeParam,
  timeRange,
} from './audit-params';
import { AuditRequestError } from './audit-query';
import { KeysetCursors, pageSize } from './keyset-cursor';
import { parseRoundFilter } from './round-filter';

/** The error code and message an auditor gets back for this call, or 'ok'. */
function refusal(call: () => unknown): { code: string; message: string } | 'ok' {
  try {
    call();
    return 'ok';
  } catch (error) {
    if (!(error instanceof AuditRequestError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('auditor text parameters', () => {
  it.each([
    ['a NUL', 'pok\u0000deng', 'tableId must not contain a NUL character'],
    ['a lone high surrogate', 'alice\uD800', 'tableId must be valid Unicode (a lone surrogate)'],
    ['a lone low surrogate', '\uDC00bob', 'tableId must be valid Unicode (a lone surrogate)'],
    ['201 characters', 'x'.repeat(201), 'tableId must be at most 200 characters'],
    ['a repeated key', ['a', 'b'], 'tableId must be given once, as text'],
    ['a nested key', { x: '1' }, 'tableId must be given once, as text'],
  ])('refuses %s as invalid-text', (_what, value, message) => {
    expect(refusal(() => textParam('tableId', value))).toEqual({ code: 'invalid-text', message });
  });

  it('takes text with a surrogate pair, and treats empty as absent', () => {
    expect(textParam('playerId', 'spieler-\u{1F0A1}')).toBe('spieler-\u{1F0A1}');
    expect(textParam('playerId', 'x'.repeat(200))).toHaveLength(200);
    expect(textParam('playerId', '')).toBeUndefined();
    expect(textParam('playerId', undefined)).toBeUndefined();
  });

  it('checks every text filter of a round search and an export', () => {
    for (const name of ['tableId', 'game', 'status', 'shoeId', 'playerId']) {
      expect(refusal(() => parseRoundFilter({ [name]: 'a\u0000' }))).toMatchObject({
        code: 'invalid-text',
        message: `${name} must not contain a NUL character`,
      });
    }
  });
});

describe('auditor query parameters', () => {
  it('refuses one the endpoint does not read (a misspelt filter), naming it and what is read', () => {
    expect(
      refusal(() => onlyKnownParams({ player: 'p1', tableId: 't' }, ['tableId', 'playerId'])),
    ).toEqual({
      code: 'unknown-parameter',
      message: 'unknown query parameter "player": this endpoint reads tableId, playerId',
    });
  });

  it('takes the ones it reads, and none at all', () => {
    expect(
      refusal(() => onlyKnownParams({ tableId: 't', playerId: '' }, ['tableId', 'playerId'])),
    ).toBe('ok');
    expect(refusal(() => onlyKnownParams({}, ['tableId']))).toBe('ok');
    expect(refusal(() => onlyKnownParams(undefined, ['tableId']))).toBe('ok');
  });
});

describe('auditor times', () => {
  it('reads ISO 8601 dates and times in UTC unless an offset is given', () => {
    expect(timeParam('from', '2026-11-29')?.toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(timeParam('from', '2026-11-29T12:30:00Z')?.toISOString()).toBe(
      '2026-11-29T12:30:00.000Z',
    );
    expect(timeParam('from', '2026-11-29T12:30:00.123+01:00')?.toISOString()).toBe(
      '2026-11-29T11:30:00.123Z',
    );
    expect(timeParam('from', '2026-11-29 12:30:00.123456+00')?.toISOString()).toBe(
      '2026-11-29T12:30:00.123Z',
    );
    expect(timeParam('from', '2024-02-29T00:00')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it.each([
    ['yesterday', 'from must be an ISO 8601 time (got "yesterday")'],
    ['2026-02-30', 'from must be an ISO 8601 time of a real date (got "2026-02-30")'],
    ['2025-02-29T00:00Z', 'from must be an ISO 8601 time of a real date (got "2025-02-29T00:00Z")'],
    ['2026-13-01', 'from must be an ISO 8601 time of a real date (got "2026-13-01")'],
    [
      '2026-11-29T24:00:00Z',
      'from must be an ISO 8601 time of a real date (got "2026-11-29T24:00:00Z")',
    ],
    ['+275760-09-13T00:00:00Z', 'from must be an ISO 8601 time (got "+275760-09-13T00:00:00Z")'],
    ['0000-01-01', 'from must be an ISO 8601 time in years 1970 to 9999 (got "0000-01-01")'],
    [
      '1969-12-31T23:59:59Z',
      'from must be an ISO 8601 time in years 1970 to 9999 (got "1969-12-31T23:59:59Z")',
    ],
    [
      '2026-11-29T12:00:00+99:00',
      'from must be an ISO 8601 time with a valid offset (got "2026-11-29T12:00:00+99:00")',
    ],
  ])('refuses %s as invalid-time', (value, message) => {
    expect(refusal(() => timeParam('from', value))).toEqual({ code: 'invalid-time', message });
  });

  it('wants from before to', () => {
    expect(refusal(() => timeRange({ from: '2026-11-30', to: '2026-11-29' }))).toEqual({
      code: 'bad-request',
      message: 'from must be before to',
    });
  });

  it(`caps a replay at ${MAX_REPLAY_DAYS} days`, () => {
    expect(replayRange({ from: '2026-11-01', to: '2026-11-08' }).to.toISOString()).toBe(
      '2026-11-08T00:00:00.000Z',
    );
    expect(refusal(() => replayRange({ from: '2026-11-01', to: '2026-11-08T00:00:01Z' }))).toEqual({
      code: 'range-too-large',
      message: `a replay covers at most ${MAX_REPLAY_DAYS} days per call; split the range`,
    });
    expect(refusal(() => replayRange({ from: '2026-11-01' }))).toMatchObject({
      code: 'bad-request',
    });
  });
});

describe('auditor cursors and page sizes', () => {
  const cursors = new KeysetCursors(Buffer.alloc(32, 7));
  const key = { at: '2026-11-29 12:00:00.123456+00', id: '6f1c0b7e-1111-4222-8333-944445555666' };
  /** A payload signed with the service's key: what only a leaked key would let someone make. */
  const signed = (value: unknown) => {
    const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
    const mac = createHmac('sha256', Buffer.alloc(32, 7)).update(`rounds\n${payload}`).digest();
    return `${payload}.${mac.subarray(0, 16).toString('base64url')}`;
  };

  it('signs the way the crafted cursors below are signed (they test the checks after the mac)', () => {
    expect(signed([key.at, key.id])).toBe(cursors.encode('rounds', key));
  });

  it('round-trips a cursor it issued, for rounds (uuid ids) and bets (text ids)', () => {
    expect(cursors.decode('rounds', cursors.encode('rounds', key))).toEqual(key);
    const bet = { ...key, id: 'audit-pd-1' };
    expect(cursors.decode('player-bets', cursors.encode('player-bets', bet))).toEqual(bet);
  });

  it.each([
    ['garbled base64', '%%%not base64%%%'],
    ['base64 of no JSON', Buffer.from('\u0000\u0001').toString('base64url')],
    ['an impossible time', signed(['2026-13-45 99:99:99+00', key.id])],
    ['a time out of range', signed(['0000-01-01 00:00:00+00', key.id])],
    ['a NUL in the id', signed([key.at, 'a\u0000b'])],
    ['a lone surrogate in the id', signed([key.at, '\uD800'])],
    ['an id that is no uuid', signed([key.at, 'round-7'])],
    ['a number for the id', signed([key.at, 7])],
    ['three elements', signed([key.at, key.id, 'x'])],
  ])('refuses %s as invalid-cursor', (_what, cursor) => {
    expect(refusal(() => cursors.decode('rounds', cursor))).toEqual({
      code: 'invalid-cursor',
      message: 'cursor is not one this API returned',
    });
  });

  it('refuses a repeated cursor or limit key as text', () => {
    expect(refusal(() => cursors.decode('rounds', ['a', 'b']))).toMatchObject({
      code: 'invalid-text',
    });
    expect(refusal(() => pageSize(['1', '2']))).toMatchObject({ code: 'invalid-text' });
  });
});
