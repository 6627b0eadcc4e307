import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { MetricsAccessGuard } from '../metrics/metrics-access.guard';
import { StudioMetrics } from '../metrics/studio-metrics';

/**
 * GET /metrics for Prometheus: outbox lag, relay and command-intake counters, rounds, pauses,
 * request and round durations, process metrics. Needs METRICS_TOKEN or a supervisor's token.
 */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: StudioMetrics) {}

  @Get('metrics')
  @UseGuards(MetricsAccessGuard)
  async scrape(@Res() response: Response): Promise<void> {
    const { contentType, text } = await this.metrics.exposition();
    response.setHeader('Content-Type', contentType);
    response.send(text);
  }
}
