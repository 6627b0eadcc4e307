import { AuditRequestError } from './audit-query';
import { KeysetCursors, MIN_CURSOR_KEY_BYTES, pageSize } from './keyset-cursor';

describe('keyset cursor', () => {
  const cursors = new KeysetCursors(Buffer.alloc(32, 1));
  const key = { at: '2026-11-29 12:00:00.123456+00', id: '6f1c0b7e-1111-4222-8333-944445555666' };
  const refusedAs = (listing: 'rounds' | 'player-bets', cursor: string) => {
    expect(() => cursors.decode(listing, cursor)).toThrow(
      new AuditRequestError('invalid-cursor', 'cursor is not one this API returned'),
    );
  };

  it('round-trips PostgreSQL timestamp text with microseconds and the id', () => {
    expect(cursors.decode('rounds', cursors.encode('rounds', key))).toEqual(key);
  });

  it('refuses a cursor it did not issue', () => {
    refusedAs('rounds', 'bm9wZQ');
    // The unsigned form cursors had before they were signed.
    refusedAs('rounds', Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url'));
  });

  it('refuses an edited cursor: another time or id under the mac of the issued one', () => {
    const [, mac] = cursors.encode('rounds', key).split('.');
    for (const edited of [
      { ...key, at: '2026-11-29 12:00:00.123457+00' },
      { ...key, id: '6f1c0b7e-1111-4222-8333-944445555667' },
    ]) {
      const [payload] = cursors.encode('rounds', edited).split('.');
      refusedAs('rounds', `${payload}.${mac}`);
    }
    const issued = cursors.encode('rounds', key);
    refusedAs('rounds', `${issued.slice(0, -1)}${issued.endsWith('A') ? 'B' : 'A'}`);
    refusedAs('rounds', `${issued}.x`);
    refusedAs('rounds', issued.replace('.', ''));
  });

  it("refuses another listing's cursor and one signed with another key", () => {
    const bet = { ...key, id: key.id };
    refusedAs('rounds', cursors.encode('player-bets', bet));
    refusedAs('player-bets', cursors.encode('rounds', key));
    refusedAs('rounds', new KeysetCursors(Buffer.alloc(32, 2)).encode('rounds', key));
  });

  it(`needs a key of at least ${MIN_CURSOR_KEY_BYTES} bytes`, () => {
    expect(() => new KeysetCursors(Buffer.alloc(MIN_CURSOR_KEY_BYTES - 1))).toThrow(
      `a cursor key needs at least ${MIN_CURSOR_KEY_BYTES} bytes`,
    );
  });

  it('takes page sizes 1..500 and defaults to 50', () => {
    expect(pageSize(undefined)).toBe(50);
    expect(pageSize('500')).toBe(500);
    expect(() => pageSize('501')).toThrow('limit must be a whole number from 1 to 500');
    expect(() => pageSize('0')).toThrow(AuditRequestError);
  });

  it('takes a page size written in plain digits only', () => {
    for (const odd of ['1e2', '0x10', ' 10', '10 ', '010', '+10', '10.0']) {
      expect(() => pageSize(odd)).toThrow('limit must be a whole number from 1 to 500');
    }
    expect(pageSize('7')).toBe(7);
  });
});
