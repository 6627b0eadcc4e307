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
 * service starts each request is answered `503 starting` until `listen` lets the application in.
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

/** Before the application is up: a 503 nothing caches, on a connection that is then closed. */
function answerStarting(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Retry-After': '1',
    Connection: 'close',
  });
  response.end(STARTING);
}

export function checkingInterval(headersTimeoutMs: number): number {
  return Math.min(1_000, Math.max(50, Math.floor(headersTimeoutMs / 10)));
}
