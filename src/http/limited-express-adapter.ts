import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer } from 'node:http';
import type { HttpLimits } from './http-settings';

/**
 * Nest's Express adapter with an HTTP server built with the service's timeouts: Node checks them
 * every `connectionsCheckingInterval` (30 s by default, far too slow for a 10 s header timeout),
 * here a tenth of the header timeout (50 ms to 1 s), so a half-sent request is closed with a 408
 * at most that long after the timeout.
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits: HttpLimits) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections) {
      throw new Error('LimitedExpressAdapter serves plain HTTP without forceCloseConnections');
    }
    const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = this.limits;
    this.httpServer = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        keepAliveTimeout: keepAliveTimeoutMs,
        connectionsCheckingInterval: checkingInterval(headersTimeoutMs),
      },
      this.getInstance(),
    );
  }
}

export function checkingInterval(headersTimeoutMs: number): number {
  return Math.min(1_000, Math.max(50, Math.floor(headersTimeoutMs / 10)));
}
