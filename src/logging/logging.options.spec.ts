import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import express from 'express';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoggingConfig } from '../config/studio-config';
import {
  droppingLines,
  loggingOptions,
  prettyMessage,
  requestLogLevel,
  requestLogging,
} from './logging.options';

describe('requestLogLevel', () => {
  it('keeps successes and the rules-refusals (409) out of an info log, and failures in it', () => {
    expect(requestLogLevel(200)).toBe('debug');
    expect(requestLogLevel(409)).toBe('debug');
    expect(requestLogLevel(400)).toBe('info');
    expect(requestLogLevel(401)).toBe('info');
    expect(requestLogLevel(404)).toBe('info');
    expect(requestLogLevel(503)).toBe('warn');
    expect(requestLogLevel(503, new Error('failed with status code 503'))).toBe('warn');
    expect(requestLogLevel(500)).toBe('error');
    expect(requestLogLevel(200, new Error('socket hang up'))).toBe('error');
  });
});

interface LogLine {
  level: number;
  req: { id: string; method: string; url: string };
  res: { statusCode: number };
  err?: { type: string; message: string };
  msg: string;
}

describe('requestLogging', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let logging: LoggingConfig;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'request-log-'));
    logging = { level: 'info', format: 'json', file: join(dir, 'service.log') };
    const log = requestLogging(logging);
    server = createServer((request, response) =>
      log(request, response, () => {
        const status: Record<string, number> = { '/missing': 404, '/broken': 500 };
        response.statusCode = status[(request.url ?? '').split('?')[0]] ?? 200;
        response.end('{}');
      }),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await new Promise((ok) => server.close(ok));
    rmSync(dir, { recursive: true, force: true });
  });

  const lines = () =>
    readFileSync(logging.file!, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);

  it('echoes a sane X-Request-Id, replaces any other, and logs refusals and failures with it', async () => {
    const sane = await fetch(`${base}/missing`, { headers: { 'x-request-id': 'abc-123' } });
    expect(sane.headers.get('x-request-id')).toBe('abc-123');
    const odd = await fetch(`${base}/missing`, { headers: { 'x-request-id': 'not/an id' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // At info a success (debug) is not logged; both refusals are, each with its id.
    await fetch(`${base}/fine`, { headers: { authorization: 'Bearer secret-token' } });
    await fetch(`${base}/broken`, { method: 'POST', headers: { 'x-request-id': 'r-500' } });
    const logged = lines();
    expect(logged.map((l) => [l.req.id, l.req.method, l.req.url, l.res.statusCode])).toEqual([
      ['abc-123', 'GET', '/missing', 404],
      [odd.headers.get('x-request-id'), 'GET', '/missing', 404],
      ['r-500', 'POST', '/broken', 500],
    ]);
    expect(logged[0]).toMatchObject({ level: 30, msg: 'GET /missing 404' });
    // A 500 with no error of its own: no made-up error (and its stack) in the line.
    expect(logged[2]).toMatchObject({ level: 50, msg: 'POST /broken 500' });
    expect(logged[2]).not.toHaveProperty('err');
    expect(JSON.stringify(logged)).not.toContain('secret-token');
  });

  it('never logs a query: credentials put there stay out of the log', async () => {
    await fetch(`${base}/missing?apiKey=psk_secret-key&access_token=secret-token`);
    expect(lines().map((l) => [l.req.url, l.msg])).toEqual([
      ['/missing?[query not logged]', 'GET /missing?[query not logged] 404'],
    ]);
    expect(readFileSync(logging.file!, 'utf8')).not.toContain('secret');
  });

  it('logs the URL as it came, not as a mounted middleware sees it', async () => {
    const app = express();
    app.use(requestLogging(logging));
    app.use('/docs', (_request, response) => void response.status(401).end());
    const mounted = createServer(app);
    await new Promise<void>((ok) => mounted.listen(0, '127.0.0.1', ok));
    try {
      const { port } = mounted.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/docs/index.html`);
    } finally {
      await new Promise((ok) => mounted.close(ok));
    }
    expect(lines().map((l) => [l.req.url, l.msg])).toEqual([
      ['/docs/index.html', 'GET /docs/index.html 401'],
    ]);
  });

  it('escapes control characters in a pretty line, so typed text cannot forge a line', () => {
    const forged = 'paused: x\n17:04:21.103 INFO: Rounds: FORGED\u001b[2K\u2028';
    expect(prettyMessage({ context: 'Rounds', msg: forged }, 'msg')).toBe(
      'Rounds: paused: x\\n17:04:21.103 INFO: Rounds: FORGED\\u001b[2K\\u2028',
    );
    expect(prettyMessage({ msg: 'plain' }, 'msg')).toBe('plain');
    expect(prettyMessage({}, 'msg')).toBe('');
  });

  it('says once a minute on stderr that log lines are lost, and never throws', () => {
    const said: string[] = [];
    const lost = droppingLines('/var/log/studio.log', (line) => void said.push(line));
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    for (let i = 0; i < 5; i += 1) lost(full);
    expect(said).toEqual([
      'Log lines to /var/log/studio.log cannot be written (ENOSPC): 1 lost so far; the service runs on\n',
    ]);
    const broken = droppingLines('stdout', () => {
      throw new Error('stderr closed');
    });
    expect(() => broken(full)).not.toThrow();
  });

  it("shares one stream per configuration, and leaves nestjs-pino's request binding out", () => {
    const first = loggingOptions(logging);
    const again = loggingOptions(logging);
    expect(first.forRoutes).toEqual([]);
    const stream = (params: typeof first) => (params.pinoHttp as [unknown, unknown])[1];
    expect(stream(again)).toBe(stream(first));
    expect(stream(loggingOptions({ ...logging }))).not.toBe(stream(first));
  });
});
