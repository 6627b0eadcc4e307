import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '../clock/clock';
import { ApiOk } from '../http/api-docs';
import { LIVENESS_BODY, READINESS_BODY } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { READINESS_CHECKS, ReadinessCheck, runReadiness } from './readiness';

@Controller('health')
@ApiTags('health')
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
  @ApiOk(LIVENESS_BODY, 'the process is up')
  live() {
    return {
      status: 'ok',
      uptimeSeconds: Math.round((this.clock.now().getTime() - this.startedAt.getTime()) / 1000),
    };
  }

  /** Everything the service depends on is usable; 503 with the failing checks otherwise. */
  @Get('ready')
  @ApiOk(READINESS_BODY, 'every check is ok')
  @ApiResponse({
    status: 503,
    description: 'a check failed',
    schema: openApiSchema(READINESS_BODY),
  })
  async ready(@Res({ passthrough: true }) response: Response) {
    const report = await runReadiness(this.checks);
    response.status(report.status === 'ok' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
