import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '../clock/clock';
import { Roles } from '../auth/roles.guard';
import { ApiOk, ApiPublic, ApiStaff, ApiSummary } from '../http/api-docs';
import { LIVENESS_BODY, READINESS_BODY } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { READINESS_CHECKS, ReadinessCheck, ReadinessReport, runReadiness } from './readiness';

@Controller('health')
export class HealthController {
  private readonly startedAt: Date;
  private draining = false;

  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly clock: Clock,
  ) {
    this.startedAt = clock.now();
  }

  /** The process is up and serving HTTP. */
  @ApiPublic('health', 'Liveness: the process is up')
  @Get('live')
  @ApiOk(LIVENESS_BODY, 'the process is up')
  live() {
    return {
      status: 'ok',
      uptimeSeconds: Math.round((this.clock.now().getTime() - this.startedAt.getTime()) / 1000),
    };
  }

  /**
   * Open to load balancers and probes: 200 when everything the service depends on is usable, 503
   * otherwise, with each check's status only (no paths, messages or reader states).
   */
  @ApiPublic('health', 'Readiness: every dependency is usable (for load balancers)')
  @Get('ready')
  @ApiOk(READINESS_BODY, 'every check is ok')
  @ApiResponse({
    status: 503,
    description: 'a check failed',
    schema: openApiSchema(READINESS_BODY),
  })
  async ready(@Res({ passthrough: true }) response: Response) {
    const report = await this.report(response);
    const checks = Object.fromEntries(
      Object.entries(report.checks).map(([name, check]) => [name, { status: check.status }]),
    );
    return { status: report.status, checks };
  }

  /** The full report (pty paths, reader states, outbox lag, error messages): supervisors only. */
  @ApiSummary('Readiness with what each check found')
  @Get('ready/details')
  @Roles('supervisor')
  @ApiStaff('health', 'supervisor')
  @ApiOk(READINESS_BODY, 'every check is ok, with what each one found')
  details(@Res({ passthrough: true }) response: Response) {
    return this.report(response);
  }

  /**
   * The instance is stopping: readiness answers 503 from now on, before anything else stops, so
   * load balancers send no new work while it finishes and hands over what it holds.
   */
  drain(): void {
    this.draining = true;
  }

  private async report(response: Response): Promise<ReadinessReport> {
    const report = await runReadiness(this.checks);
    if (this.draining) {
      report.status = 'error';
      report.checks.draining = { status: 'error', message: 'the instance is stopping' };
    }
    response.status(report.status === 'ok' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
