import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { type Options, pinoHttp } from 'pino-http';
import type { LoggingConfig } from '../config/studio-config';
import { loggingOptions, requestLogging } from './logging.options';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const STATUS: Record<string, number> = { '/missing': 404, '/broken': 500, '/away': 503 };

/** A server answering by path; `/hang` answers only once the client has gone. */
async function serve(log: Middleware): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) =>
    log(request, response, () => {
      const path = (request.url ?? '').split('?')[0];
      if (path === '/hang') return;
      if (path === '/fails') {
        response.emit('error', new Error('socket went away'));
        response.end();
        return;
      }
      response.statusCode = STATUS[path] ?? 200;
      response.end('{}');
    }),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const PATHS = ['/fine', '/missing?apiKey=x', '/broken', '/away', '/health/live', '/fails'];

async function requests(base: string, prefix: string): Promise<Array<string | null>> {
  const ids: Array<string | null> = [];
  for (const path of PATHS) {
    const method = path === '/broken' ? 'POST' : 'GET';
    const headers = { 'x-request-id': `${prefix}${path.length}` };
    const answer = await fetch(`${base}${path}`, { method, headers });
    ids.push(answer.headers.get('x-request-id'));
  }
  const gone = new AbortController();
  const hanging = fetch(`${base}/hang`, {
    signal: gone.signal,
    headers: { 'x-request-id': `${prefix}hang` },
  }).catch(() => undefined);
  await new Promise((ok) => setTimeout(ok, 50));
  gone.abort();
  await hanging;
  await new Promise((ok) => setTimeout(ok, 50));
  return ids;
}

describe('lazyRequestLog', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'request-log-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Each line without what differs between runs (time, response time, ids' prefix, stack). */
  function lines(file: string, prefix: string) {
    return readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => JSON.stringify(line).includes(prefix))
      .map((line) => {
        const { time, responseTime, ...rest } = line;
        expect([typeof time, typeof responseTime]).toEqual(['string', 'number']);
        // An error's stack names the middleware it passed through.
        if (rest.err) (rest.err as { stack?: string }).stack = 'stack';
        return JSON.stringify(rest).replaceAll(prefix, '<id>');
      });
  }

  it.each(['debug', 'info', 'warn'] as const)(
    "writes pino-http's lines, at %s, with the same answers",
    async (level) => {
      const run = async (log: Middleware, prefix: string) => {
        const { server, base } = await serve(log);
        try {
          return await requests(base, prefix);
        } finally {
          server.closeAllConnections();
          server.close();
        }
      };
      const before: LoggingConfig = { level, format: 'json', file: join(dir, 'before.log') };
      const after: LoggingConfig = { level, format: 'json', file: join(dir, 'after.log') };
      const [options, stream] = loggingOptions(before).pinoHttp as [
        Options<IncomingMessage, ServerResponse>,
        DestinationStream,
      ];
      const original = pinoHttp(options, stream) as unknown as Middleware;
      const beforeIds = await run(original, 'b-');
      const afterIds = await run(requestLogging(after) as Middleware, 'a-');
      expect(afterIds.map((id) => id?.replace('a-', ''))).toEqual(
        beforeIds.map((id) => id?.replace('b-', '')),
      );
      const written = lines(after.file!, 'a-');
      expect(written).toEqual(lines(before.file!, 'b-'));
      const expected = { debug: 6, info: 4, warn: 3 }[level];
      expect(written).toHaveLength(expected);
    },
  );
});
