import {
  ArgumentsHost,
  BadRequestException,
  ForbiddenException,
  HttpException,
  NotFoundException,
} from '@nestjs/common';
import { HttpErrorsFilter, reworded, serverError } from './http-errors.filter';

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

  it("hands the service's own refusals to Nest as they are", () => {
    const { host } = httpHost();
    const filter = new HttpErrorsFilter();
    const base = jest
      .spyOn(Object.getPrototypeOf(HttpErrorsFilter.prototype), 'catch')
      .mockImplementation(() => undefined);
    const refused = new BadRequestException({ error: 'invalid-amount', message: 'too much' });
    filter.catch(refused, host);
    expect(base.mock.calls.map((c) => c[0])).toEqual([refused]);
    base.mockRestore();
  });

  it("answers a failure it did not expect 500 internal-error in the service's shape, its detail only logged", () => {
    const { host, response } = httpHost();
    const filter = new HttpErrorsFilter();
    const logged = jest.spyOn(filter['logger'], 'error').mockImplementation(() => undefined);
    filter.catch(new TypeError("Cannot read properties of undefined (reading 'a')"), host);
    expect(response.statusCode).toBe(500);
    expect(response.body).toEqual({
      error: 'internal-error',
      message: expect.stringContaining('X-Request-Id'),
    });
    expect(JSON.stringify(response.body)).not.toContain('Cannot read');
    expect(logged).toHaveBeenCalledWith(
      "Cannot read properties of undefined (reading 'a')",
      expect.stringContaining('TypeError'),
    );
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

  it("words Nest's own 5xx in the service's shape and leaves the service's own as they are", () => {
    expect(serverError(new HttpException('boom', 500))).toEqual({
      status: 500,
      body: { error: 'internal-error', message: 'boom' },
    });
    expect(serverError(new HttpException('later', 503))?.body.error).toBe('service-unavailable');
    const own = new HttpException({ error: 'database-unavailable', message: 'm' }, 503);
    expect(serverError(own)).toBeUndefined();
  });
});
