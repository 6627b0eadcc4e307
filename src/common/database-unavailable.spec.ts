import { isDatabaseUnavailable, mayHaveCommitted } from './database-unavailable';

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

  it('recognises a database closed to connections or out of resources', () => {
    const closed = 'database "studio" is not currently accepting connections';
    expect(isDatabaseUnavailable(connectionError('55000', closed))).toBe(true);
    expect(isDatabaseUnavailable(connectionError('53300', 'sorry, too many clients'))).toBe(true);
    expect(isDatabaseUnavailable(connectionError('53100', 'could not extend file'))).toBe(true);
    // 55000 is also a statement's error (a sequence's currval before nextval): not an outage.
    const currval = 'currval of sequence "s" is not yet defined in this session';
    expect(isDatabaseUnavailable(connectionError('55000', currval))).toBe(false);
  });

  it('leaves a statement the database refused, and ordinary errors, alone', () => {
    expect(isDatabaseUnavailable(connectionError('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailable(connectionError('22P02', 'invalid input syntax'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('mayHaveCommitted', () => {
  it('is true when the connection broke with the statement in flight, however it is wrapped', () => {
    expect(mayHaveCommitted(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(mayHaveCommitted(connectionError('ECONNRESET'))).toBe(true);
    expect(mayHaveCommitted(new Error('Query read timeout'))).toBe(true);
    const typeorm = Object.assign(new Error('query failed'), {
      driverError: new Error('Connection terminated unexpectedly'),
    });
    expect(mayHaveCommitted(new Error('wrapped', { cause: typeorm }))).toBe(true);
  });

  it('is false when nothing was sent, the database rolled back, or refused the statement', () => {
    expect(mayHaveCommitted(connectionError('ECONNREFUSED'))).toBe(false);
    expect(mayHaveCommitted(new Error('timeout exceeded when trying to connect'))).toBe(false);
    expect(mayHaveCommitted(new Error('Connection terminated due to connection timeout'))).toBe(
      false,
    );
    expect(mayHaveCommitted(connectionError('57014', 'canceling statement due to timeout'))).toBe(
      false,
    );
    expect(mayHaveCommitted(connectionError('23505', 'duplicate key'))).toBe(false);
    expect(mayHaveCommitted(Object.assign(new Error('gone'), { name: 'LeaseLostError' }))).toBe(
      false,
    );
    expect(mayHaveCommitted(undefined)).toBe(false);
  });
});
