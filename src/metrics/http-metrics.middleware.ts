import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { StudioMetrics } from './studio-metrics';

const STARTED = Symbol('httpMetricsStarted');
const TIMED = Symbol('httpMetricsTimed');

type TimedResponse = Response & { [STARTED]?: number; [TIMED]?: (response: TimedResponse) => void };

/**
 * Times every HTTP request by its route pattern (`/platform/tables/:tableId/bets`, never the
 * concrete URL: one series per route, not per table or id), from arrival to the last byte of the
 * answer, refusals by guards included (a middleware runs before them, an interceptor after).
 * One listener shared by all answers (no closure or `once` wrapper per request).
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  private readonly timed = (response: TimedResponse): void => {
    const request = response.req as Request;
    this.metrics.httpDuration.observe(
      {
        method: request.method,
        route: (request.route as { path?: string } | undefined)?.path ?? 'unmatched',
        status: String(response.statusCode),
      },
      (performance.now() - (response[STARTED] as number)) / 1000,
    );
  };

  constructor(private readonly metrics: StudioMetrics) {}

  use(_request: Request, response: Response, next: NextFunction): void {
    const timed = response as TimedResponse;
    timed[STARTED] = performance.now();
    timed[TIMED] = this.timed;
    response.on('finish', finished);
    next();
  }
}

function finished(this: TimedResponse): void {
  this.removeListener('finish', finished);
  (this[TIMED] as (response: TimedResponse) => void)(this);
}
