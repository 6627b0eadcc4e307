import {
  ArgumentsHost,
  BadRequestException,
  ForbiddenException,
  HttpException,
  NotFoundException,
} from '@nestjs/common';
import { HttpErrorsFilter, reworded } from './http-errors.filter';

function connectionError(code: string, message = 'x'): Error {
  return Object.assign(new Error(message), { code });
}

describe('HttpErrorsFilter', () => {
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
      headersSent: false,
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
    new HttpErrorsFilter().catch(connectionError('ECONNREFUSED'), host);
    expect(response.statusCode).toBe(503);
    expect(response.headers['Retry-After']).toBe('5');
    expect(response.body).toMatchObject({ error: 'database-unavailable' });
  });

  it.each(['LeaseLostError', 'StaleTableStateError'])(
    'answers 503 with Retry-After for a commit an outage left uncertain (%s), not 500',
    (name) => {
      const { host, response } = httpHost();
      new HttpErrorsFilter().catch(Object.assign(new Error('table t1'), { name }), host);
      expect(response.statusCode).toBe(503);
      expect(response.headers['Retry-After']).toBe('5');
      expect(response.body).toMatchObject({ error: 'database-unavailable' });
    },
  );

  it('answers a refusal Nest worded in the service shape', () => {
    const { host, response } = httpHost();
    new HttpErrorsFilter().catch(new NotFoundException('Cannot DELETE /health/ready'), host);
    expect(response.statusCode).toBe(404);
    expect(response.body).toEqual({ error: 'not-found', message: 'Cannot DELETE /health/ready' });
  });

  it("hands the service's own refusals and unknown errors to Nest as they are", () => {
    const { host } = httpHost();
    const filter = new HttpErrorsFilter();
    const base = jest
      .spyOn(Object.getPrototypeOf(HttpErrorsFilter.prototype), 'catch')
      .mockImplementation(() => undefined);
    const refused = new BadRequestException({ error: 'invalid-amount', message: 'too much' });
    filter.catch(refused, host);
    filter.catch(new TypeError('bug'), host);
    expect(base.mock.calls.map((c) => c[0])).toEqual([refused, expect.any(TypeError)]);
    base.mockRestore();
  });
});

describe('reworded', () => {
  it("words Nest's and the body parser's refusals as { error, message }", () => {
    expect(reworded(new ForbiddenException('Supervisors only'))).toEqual({
      status: 403,
      body: { error: 'forbidden', message: 'Supervisors only' },
    });
    expect(reworded(new HttpException('ThrottlerException: Too Many Requests', 429))).toEqual({
      status: 429,
      body: { error: 'too-many-requests', message: 'ThrottlerException: Too Many Requests' },
    });
    // Nest turns the body parser's SyntaxError into a bare BadRequestException.
    expect(reworded(new BadRequestException('Unterminated string in JSON at position 34'))).toEqual(
      {
        status: 400,
        body: { error: 'invalid-json', message: 'Unterminated string in JSON at position 34' },
      },
    );
    const tooLarge = Object.assign(new Error('request entity too large'), {
      status: 413,
      statusCode: 413,
      expose: true,
      type: 'entity.too.large',
    });
    expect(reworded(tooLarge)).toEqual({
      status: 413,
      body: { error: 'payload-too-large', message: 'request entity too large' },
    });
  });

  it('leaves server errors and what must not be shown to the client alone', () => {
    expect(reworded(new HttpException('boom', 500))).toBeUndefined();
    const hidden = Object.assign(new Error('internal detail'), { status: 400, expose: false });
    expect(reworded(hidden)).toBeUndefined();
    expect(reworded(new TypeError('bug'))).toBeUndefined();
    expect(reworded(null)).toBeUndefined();
  });
});
