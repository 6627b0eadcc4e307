import { BadRequestException, Controller, Get, Query } from '@nestjs/common';
import { Roles } from '../auth/roles.guard';
import { GetHoldReport } from './get-hold-report';

/** Live hold monitoring for supervisors: returns, rescans and pace per table and game. */
@Controller('console/api')
export class HoldMonitoringController {
  constructor(private readonly report: GetHoldReport) {}

  @Get('hold')
  @Roles('supervisor')
  hold(@Query('rounds') rounds?: string, @Query('hours') hours?: string) {
    return this.report.execute({
      rounds: whole('rounds', rounds, 200, 5, 5000),
      hours: whole('hours', hours, 24, 1, 168),
    });
  }
}

function whole(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new BadRequestException({
      error: 'bad-request',
      message: `${name} must be a whole number from ${min} to ${max} (got "${value}")`,
    });
  }
  return n;
}
