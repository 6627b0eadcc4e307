import { isDatabaseUnavailable } from './database-unavailable';

function connectionError(code: string, message = 'x'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it('recognises a lost or refused connection, however it is wrapped', () => {
    expect(isDatabaseUnavailable(connectionError('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(connectionError('57P01', 'terminating connection'))).toBe(true);
    expect(isDatabaseUnavailable(connectionError('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    const typeorm = Object.assign(new Error('query failed'), {
      driverError: connectionError('ECONNRESET'),
    });
    expect(isDatabaseUnavailable(typeorm)).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: typeorm }))).toBe(true);
  });

  it('leaves a statement the database refused, and ordinary errors, alone', () => {
    expect(isDatabaseUnavailable(connectionError('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailable(connectionError('22P02', 'invalid input syntax'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
