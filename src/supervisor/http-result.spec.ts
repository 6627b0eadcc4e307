import type { CommandResult } from '../use-cases/common/tables.port';
import { toHttp } from './http-result';

describe('toHttp', () => {
  it('answers an accepted command as {accepted, reply, duplicate?}, whatever order it came in', () => {
    // As a stored answer comes back from jsonb: shorter keys first.
    const stored = JSON.parse('{"reply":{},"accepted":true}') as CommandResult;
    expect(JSON.stringify(toHttp(stored))).toBe('{"accepted":true,"reply":{}}');
    const repeat = JSON.parse(
      '{"reply":{"betId":"b"},"accepted":true,"duplicate":true}',
    ) as CommandResult;
    expect(JSON.stringify(toHttp(repeat))).toBe(
      '{"accepted":true,"reply":{"betId":"b"},"duplicate":true}',
    );
  });

  it('refuses a rejected command with its code', () => {
    expect(() => toHttp({ accepted: false, code: 'betting-closed', message: 'closed' })).toThrow(
      expect.objectContaining({ status: 409 }),
    );
  });
});
