import { ArgumentsHost, Catch, HttpException, Logger, NotFoundException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';
import { allowedMethods, RoutedRequest } from './allowed-methods';
import { oneLine } from '../common/one-line';
import { isDatabaseUnavailable, isLeftByOutage } from '../common/database-unavailable';

/** How long a client should wait before retrying (seconds): about one reconnect of the pool. */
const RETRY_AFTER_SECONDS = 5;

/** The `error` code of a refusal that Nest or the body parser worded, by HTTP status. */
const CODES: Readonly<Record<number, string>> = {
  400: 'bad-request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  429: 'too-many-requests',
};

/** The body-parser's refusals, by its error type: what the client sent wrong. */
const BODY_CODES: Readonly<Record<string, string>> = {
  'entity.parse.failed': 'invalid-json',
  'entity.too.large': 'payload-too-large',
  'encoding.unsupported': 'unsupported-encoding',
  'charset.unsupported': 'unsupported-charset',
};

interface Refusal {
  status: number;
  body: { error: string; message: string };
}

/**
 * Every HTTP error in the service's one shape, `{ "error": "<code>", "message": "..." }`:
 * - a request that failed because the database is out, or on what an outage left behind (a lease
 *   that lapsed, a commit whose answer was lost), gets 503 `database-unavailable` with
 *   `Retry-After` (the service recovers by itself; the request may be repeated), not a bare 500;
 * - refusals Nest or the body parser word themselves (an unknown route, JSON that does not parse,
 *   a body too large) get the same shape as the service's own refusals instead of Nest's
 *   `{ statusCode, message, error: "Not Found" }`;
 * - the service's own refusals pass as they are; a failure it did not expect is logged and
 *   answered 500 `internal-error` (serverError).
 */
@Catch()
export class HttpErrorsFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('Http');

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return super.catch(exception, host);
    const response = host.switchToHttp().getResponse<Response>();
    if (
      !(exception instanceof HttpException) &&
      (isDatabaseUnavailable(exception) || isLeftByOutage(exception))
    ) {
      this.logger.warn(`Answered 503, the database is unavailable: ${oneLine(exception)}`);
      response.status(503).setHeader('Retry-After', String(RETRY_AFTER_SECONDS)).json({
        error: 'database-unavailable',
        message: 'The database is unavailable right now; the service recovers by itself: retry',
      });
      return;
    }
    const request = host.switchToHttp().getRequest<RoutedRequest>();
    const allow = noRoute(exception) ? allowedMethods(request) : [];
    if (allow.length > 0 && !response.headersSent) {
      const { method, path } = request;
      response
        .status(405)
        .setHeader('Allow', allow.join(', '))
        .json({
          error: 'method-not-allowed',
          message: `${method} is not answered on ${path}: use ${allow.join(' or ')}`,
        });
      return;
    }
    if (response.headersSent) return super.catch(exception, host);
    const refusal = reworded(exception) ?? serverError(exception);
    if (!refusal) return super.catch(exception, host);
    if (refusal.status === 500 && !(exception instanceof HttpException)) {
      // What Nest logs for an error it did not expect (the request log adds the request's id).
      const e = exception as { message?: unknown; stack?: unknown } | null;
      this.logger.error(
        String(e?.message ?? exception),
        typeof e?.stack === 'string' ? e.stack : '',
      );
    }
    response.status(refusal.status).json(refusal.body);
  }
}

/**
 * A failure of the service's own (5xx), in the service's shape rather than Nest's
 * `{ statusCode: 500, message: "Internal server error" }`, so a client reads every error the same
 * way; what failed stays in the log, not in the answer. Undefined for the service's own refusals
 * (their body passes as it is).
 */
export function serverError(exception: unknown): Refusal | undefined {
  if (exception instanceof HttpException) {
    const worded = nestWorded(exception);
    if (!worded) return;
    const { status, message } = worded;
    return { status, body: { error: SERVER_CODES[status] ?? 'internal-error', message } };
  }
  return {
    status: 500,
    body: {
      error: 'internal-error',
      message:
        'The service failed to answer this request; the error is logged under the X-Request-Id of this answer',
    },
  };
}

/** The `error` code of a failure of the service's own, by HTTP status. */
const SERVER_CODES: Readonly<Record<number, string>> = {
  501: 'not-implemented',
  503: 'service-unavailable',
  504: 'gateway-timeout',
};

/** Nest's answer to a request no route took: `Cannot GET /path`, in its own shape. */
function noRoute(exception: unknown): boolean {
  if (!(exception instanceof NotFoundException)) return false;
  const answer = exception.getResponse();
  return (
    typeof answer === 'object' &&
    answer !== null &&
    'statusCode' in answer &&
    /^Cannot [A-Z]+ /.test(exception.message)
  );
}

/** A refusal worded by Nest or the body parser, in the service's shape; undefined for others. */
export function reworded(exception: unknown): Refusal | undefined {
  if (exception instanceof HttpException) {
    const worded = nestWorded(exception);
    if (!worded || worded.status >= 500) return;
    const { status, message } = worded;
    return {
      status,
      body: { error: codeOf(status, exception), message: message || exception.message },
    };
  }
  // http-errors (the body parser's): status, and expose = safe to tell the client.
  const e = exception as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
    return { status: e.status, body: { error: codeOf(e.status, e), message: String(e.message) } };
  }
  return undefined;
}

/**
 * The status and message of an HttpException Nest or a library worded (`{ statusCode, message }`
 * or a bare string); undefined for the service's own refusals, which carry their code already.
 */
function nestWorded(exception: HttpException): { status: number; message: string } | undefined {
  const answer = exception.getResponse();
  if (typeof answer === 'object' && answer !== null && !('statusCode' in answer)) return;
  const message =
    typeof answer === 'string' ? answer : textOf((answer as { message?: unknown }).message);
  return { status: exception.getStatus(), message };
}

function codeOf(status: number, error: unknown): string {
  const parser = parserType(error);
  if (parser && BODY_CODES[parser]) return BODY_CODES[parser];
  // Nest rewords the body parser's SyntaxError as a bare BadRequestException (its message only).
  if (status === 400 && error instanceof HttpException && /\bJSON\b/.test(error.message)) {
    return 'invalid-json';
  }
  return CODES[status] ?? 'bad-request';
}

/** The body parser's error type, on the error or on the cause Nest wrapped it in. */
function parserType(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 2) return undefined;
  const e = error as { type?: unknown; cause?: unknown };
  if (typeof e.type === 'string') return e.type;
  return parserType(e.cause, depth + 1);
}

function textOf(message: unknown): string {
  if (Array.isArray(message)) return message.map(String).join('; ');
  return typeof message === 'string' ? message : '';
}
