import { AuditRequestError } from './audit-query';
import { csvField, csvLine, EXPORT_COLUMNS } from './export-rounds.use-case';
import { decodeCursor, encodeCursor, pageSize } from './keyset-cursor';

describe('keyset cursor', () => {
  it('round-trips PostgreSQL timestamp text with microseconds and the id', () => {
    const key = { at: '2026-11-29 12:00:00.123456+00', id: '6f1c0b7e-1111-4222-8333-944445555666' };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  it('refuses a cursor it did not issue', () => {
    expect(() => decodeCursor('bm9wZQ')).toThrow(AuditRequestError);
    expect(() => decodeCursor(Buffer.from('["yesterday","x"]').toString('base64url'))).toThrow(
      'cursor is not one this API returned',
    );
  });

  it('takes page sizes 1..500 and defaults to 50', () => {
    expect(pageSize(undefined)).toBe(50);
    expect(pageSize('500')).toBe(500);
    expect(() => pageSize('501')).toThrow('limit must be a whole number from 1 to 500');
    expect(() => pageSize('0')).toThrow(AuditRequestError);
  });
});

describe('CSV export lines', () => {
  it('quotes fields holding commas, quotes or line breaks (RFC 4180) and leaves nulls empty', () => {
    expect(csvField('dealer said "stop", then left')).toBe('"dealer said ""stop"", then left"');
    expect(csvField(null)).toBe('');
    expect(csvField(-2_500)).toBe('-2500');
    const row = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, null])) as Parameters<
      typeof csvLine
    >[0];
    expect(csvLine({ ...row, roundId: 'r', voidReason: 'a\nb', net: 100 })).toBe(
      `r${','.repeat(9)}"a\nb",,,,100\r\n`,
    );
  });
});
