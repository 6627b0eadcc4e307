import { HttpException, HttpStatus } from '@nestjs/common';
import type { CommandResult } from '../use-cases/common/tables.port';

const STATUS_BY_CODE: Record<string, HttpStatus> = {
  'unknown-table': HttpStatus.NOT_FOUND,
  'table-not-driven-here': HttpStatus.SERVICE_UNAVAILABLE,
  'table-stopping': HttpStatus.SERVICE_UNAVAILABLE,
  'command-failed': HttpStatus.UNPROCESSABLE_ENTITY,
  'reason-required': HttpStatus.BAD_REQUEST,
  'invalid-command': HttpStatus.BAD_REQUEST,
  'invalid-card': HttpStatus.BAD_REQUEST,
  'unknown-request': HttpStatus.NOT_FOUND,
  'unknown-bet': HttpStatus.NOT_FOUND,
  'second-supervisor-required': HttpStatus.FORBIDDEN,
};

/** A refused command becomes 4xx with its reason code; the phase conflicts are 409. */
export function toHttp(result: CommandResult): Record<string, unknown> {
  if (result.accepted) return { ...result };
  throw new HttpException(
    { error: result.code, message: result.message },
    STATUS_BY_CODE[result.code] ?? HttpStatus.CONFLICT,
  );
}
