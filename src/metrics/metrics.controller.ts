import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiStaff, ApiSummary } from '../http/api-docs';
import { MetricsAccessGuard } from './metrics-access.guard';
import { StudioMetrics } from './studio-metrics';

/**
 * GET /metrics for Prometheus: outbox lag, relay and command-intake counters, rounds, pauses,
 * request and round durations, process metrics. Needs METRICS_TOKEN or a supervisor's token.
 */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: StudioMetrics) {}

  @ApiSummary('Prometheus metrics (text exposition format)')
  @ApiResponse({
    status: 200,
    description: 'the metrics',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @Get('metrics')
  @UseGuards(MetricsAccessGuard)
  @ApiStaff('operations', 'supervisor (or the METRICS_TOKEN bearer)')
  @ApiProduces('text/plain')
  async scrape(@Res() response: Response): Promise<void> {
    const { contentType, text } = await this.metrics.exposition();
    response.setHeader('Content-Type', contentType);
    response.send(text);
  }
}
