import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { StudioMetrics } from './studio-metrics';

/**
 * Times every HTTP request by its route pattern (`/platform/tables/:tableId/bets`, never the
 * concrete URL: one series per route, not per table or id), from arrival to the last byte of the
 * answer, refusals by guards included (a middleware runs before them, an interceptor after).
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: StudioMetrics) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      this.metrics.httpDuration.observe(
        {
          method: request.method,
          route: (request.route as { path?: string } | undefined)?.path ?? 'unmatched',
          status: String(response.statusCode),
        },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  }
}
