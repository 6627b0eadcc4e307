import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../clock/clock';
import { READINESS_CHECKS, ReadinessCheck, runReadiness } from './readiness';

@Controller('health')
export class HealthController {
  private readonly startedAt: Date;

  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly clock: Clock,
  ) {
    this.startedAt = clock.now();
  }

  /** The process is up and serving HTTP. */
  @Get('live')
  live() {
    return {
      status: 'ok',
      uptimeSeconds: Math.round((this.clock.now().getTime() - this.startedAt.getTime()) / 1000),
    };
  }

  /** Everything the service depends on is usable; 503 with the failing checks otherwise. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    const report = await runReadiness(this.checks);
    response.status(report.status === 'ok' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
