import { ArgumentsHost, BadRequestException } from '@nestjs/common';
import { DatabaseUnavailableFilter, isDatabaseUnavailable } from './database-unavailable.filter';

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

describe('DatabaseUnavailableFilter', () => {
  function httpHost() {
    const response = {
      statusCode: 0,
      headers: {} as Record<string, string>,
      body: undefined as unknown,
      status(code: number) {
        this.statusCode = code;
        return this;
      },
      setHeader(name: string, value: string) {
        this.headers[name] = value;
        return this;
      },
      json(body: unknown) {
        this.body = body;
        return this;
      },
    };
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({}) }),
      getArgByIndex: (i: number) => (i === 1 ? response : {}),
      getArgs: () => [{}, response],
    } as unknown as ArgumentsHost;
    return { host, response };
  }

  it('answers 503 database-unavailable with Retry-After for a lost database', () => {
    const { host, response } = httpHost();
    new DatabaseUnavailableFilter().catch(connectionError('ECONNREFUSED'), host);
    expect(response.statusCode).toBe(503);
    expect(response.headers['Retry-After']).toBe('5');
    expect(response.body).toMatchObject({ error: 'database-unavailable' });
  });

  it('hands every other error to Nest as before', () => {
    const { host } = httpHost();
    const filter = new DatabaseUnavailableFilter();
    const base = jest
      .spyOn(Object.getPrototypeOf(DatabaseUnavailableFilter.prototype), 'catch')
      .mockImplementation(() => undefined);
    const refused = new BadRequestException('bad');
    filter.catch(refused, host);
    filter.catch(new TypeError('bug'), host);
    expect(base.mock.calls.map((c) => c[0])).toEqual([refused, expect.any(TypeError)]);
    base.mockRestore();
  });
});
