import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { StudioMetrics } from './studio-metrics';

/**
 * Times every HTTP request by its route pattern (`/platform/tables/:tableId/bets`, never the
 * concrete URL: one series per route, not per table or id), from the guard checks to the last
 * byte of the answer, including refusals turned into answers by exception filters.
 */
@Injectable()
export class HttpMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: StudioMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const started = process.hrtime.bigint();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
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
    return next.handle();
  }
}
