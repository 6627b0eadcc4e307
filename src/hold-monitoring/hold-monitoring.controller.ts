import { BadRequestException, Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { Roles } from '../auth/roles.guard';
import { ApiOk, ApiStaff, ApiSummary } from '../http/api-docs';
import { ERROR_BODY } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { GetHoldReport } from './get-hold-report';

/** Live hold monitoring for supervisors: returns, rescans and pace per table and game. */
@Controller('console/api')
export class HoldMonitoringController {
  constructor(private readonly report: GetHoldReport) {}

  @Get('hold')
  @Roles('supervisor')
  @ApiStaff('consoles', 'supervisor')
  @ApiSummary('Hold monitoring: returns, rescans and pace per table and game')
  @ApiQuery({
    name: 'rounds',
    required: false,
    schema: { type: 'string', pattern: '^[0-9]+$', default: '200' },
    description: 'The last rounds per table to judge, 5..5000 (default 200).',
  })
  @ApiQuery({
    name: 'hours',
    required: false,
    schema: { type: 'string', pattern: '^[0-9]+$', default: '24' },
    description: 'The window of the pace figures in hours, 1..168 (default 24).',
  })
  @ApiOk({ type: 'object' }, 'the hold report per table and game')
  @ApiResponse({
    status: 400,
    description: 'a bad rounds or hours',
    schema: openApiSchema(ERROR_BODY),
  })
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
