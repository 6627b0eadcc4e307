import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpLimits } from './http-settings';

/**
 * Nest's Express adapter with an HTTP server built with the service's timeouts: Node checks them
 * every `connectionsCheckingInterval` (30 s by default, far too slow for a 10 s header timeout),
 * here a tenth of the header timeout (50 ms to 1 s), so a half-sent request is closed with a 408
 * at most that long after the timeout.
 *
 * The port can be opened before the application is built (`bind`): a port that is taken then stops
 * the start-up before the database opens, a table's lease is taken or a round starts, and while the
 * service starts each request is answered `503 starting` until `listen` lets the application in,
 * except liveness (`GET /health/live`, 200 `starting`): the process is alive, and a probe that
 * restarts a service whose liveness fails must not kill it mid-start (a first start migrates).
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  private bound?: Server;

  constructor(private readonly limits: HttpLimits) {
    super();
  }

  /** Opens the HTTP port now; rejects with Node's error (EADDRINUSE, EACCES) when it cannot. */
  async bind(port: number, host: string): Promise<AddressInfo> {
    const server = this.createServer(answerStarting);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.bound = server;
    return server.address() as AddressInfo;
  }

  /** Closes a port opened by `bind` when the start-up fails before the application has it. */
  async unbind(): Promise<void> {
    const server = this.bound;
    this.bound = undefined;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections) {
      throw new Error('LimitedExpressAdapter serves plain HTTP without forceCloseConnections');
    }
    this.httpServer = this.bound ?? this.createServer(this.getInstance());
  }

  /** On a port opened by `bind`: the application's routes take over the requests. */
  override listen(port: string | number, ...args: unknown[]): Server {
    const server = this.bound;
    if (!server) return super.listen(port, ...(args as [() => void])) as Server;
    this.bound = undefined;
    server.off('request', answerStarting);
    server.on('request', this.getInstance<RequestListener>());
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return server;
  }

  private createServer(listener: RequestListener): Server {
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = this.limits;
    return createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        keepAliveTimeout: keepAliveTimeoutMs,
        connectionsCheckingInterval: checkingInterval(headersTimeoutMs),
      },
      listener,
    );
  }
}

const STARTING = JSON.stringify({
  error: 'starting',
  message: 'The service is starting; retry in a moment',
});

/** The path liveness probes ask, answered 200 while the service starts. */
export const LIVENESS_PATH = '/health/live';

/**
 * Before the application is up: a 503 nothing caches, on a connection that is then closed; a
 * liveness probe (GET or HEAD) gets 200 `{"status":"starting"}` instead, readiness stays 503.
 */
function answerStarting(request: IncomingMessage, response: ServerResponse): void {
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  };
  if (isLivenessProbe(request)) {
    response.writeHead(200, headers);
    const live = { status: 'starting', uptimeSeconds: Math.round(process.uptime()) };
    response.end(request.method === 'HEAD' ? undefined : JSON.stringify(live));
    return;
  }
  response.writeHead(503, { ...headers, 'Retry-After': '1' });
  response.end(STARTING);
}

function isLivenessProbe(request: IncomingMessage): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return (query < 0 ? url : url.slice(0, query)) === LIVENESS_PATH;
}

export function checkingInterval(headersTimeoutMs: number): number {
  return Math.min(1_000, Math.max(50, Math.floor(headersTimeoutMs / 10)));
}
