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

/**
 * An accepted command's answer in one order, `{accepted, reply, duplicate?}`, whatever way it
 * came: an answer read back from the database comes out of jsonb, which orders keys by length
 * ("reply" before "accepted"), so the same void answered `{"reply":{},"accepted":true}` one time
 * and `{"accepted":true,"reply":{}}` another, unlike what docs/tour.md shows. A refused command
 * becomes 4xx with its reason code; the phase conflicts are 409.
 */
export function toHttp(result: CommandResult): Record<string, unknown> {
  if (result.accepted) {
    const { accepted, reply, duplicate, ...rest } = result;
    return { accepted, reply, ...rest, ...(duplicate === undefined ? {} : { duplicate }) };
  }
  throw new HttpException(
    { error: result.code, message: result.message },
    STATUS_BY_CODE[result.code] ?? HttpStatus.CONFLICT,
  );
}
