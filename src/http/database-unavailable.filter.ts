import { ArgumentsHost, Catch, HttpException, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';
import { oneLine } from '../common/one-line';

/** How long a client should wait before retrying (seconds): about one reconnect of the pool. */
const RETRY_AFTER_SECONDS = 5;

/** Node socket errors of a database connection that failed or could not be made. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/** Messages of pg and pg-pool for a connection lost or not obtained in time. */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not queryable|the database system is (starting up|shutting down)/i;

/**
 * Whether an error means the database cannot be reached right now (not that a statement was
 * wrong): socket errors, PostgreSQL connection exceptions (SQLSTATE class 08) and an operator
 * shutdown (57P01–57P03), pg's own messages for a lost connection. Looks through `driverError`
 * (TypeORM) and `cause`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.code === 'string') {
    if (SOCKET_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code) || /^57P0[123]$/.test(e.code)) {
      return true;
    }
  }
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  return (
    isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1)
  );
}

/**
 * A request that failed because the database is out gets 503 `database-unavailable` with
 * `Retry-After` (the service recovers by itself; the request may be repeated), not a bare 500.
 * Everything else is answered as Nest answers it.
 */
@Catch()
export class DatabaseUnavailableFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('Http');

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (
      host.getType() !== 'http' ||
      exception instanceof HttpException ||
      !isDatabaseUnavailable(exception)
    ) {
      super.catch(exception, host);
      return;
    }
    this.logger.warn(`Answered 503, the database is unavailable: ${oneLine(exception)}`);
    const response = host.switchToHttp().getResponse<Response>();
    response.status(503).setHeader('Retry-After', String(RETRY_AFTER_SECONDS)).json({
      error: 'database-unavailable',
      message: 'The database is unavailable right now; the service recovers by itself: retry',
    });
  }
}
