import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** What the request log says about one answer; the same functions pino-http is configured with. */
export interface RequestLogHooks {
  genReqId(req: IncomingMessage, res: ServerResponse): string;
  level(
    req: IncomingMessage,
    res: ServerResponse,
    error?: Error,
  ): 'debug' | 'info' | 'warn' | 'error';
  successMessage(req: IncomingMessage, res: ServerResponse): string;
  errorMessage(req: IncomingMessage, res: ServerResponse, error: Error): string;
  errorObject(
    req: IncomingMessage,
    res: ServerResponse,
    error: Error,
    fields: Record<string, unknown>,
  ): Record<string, unknown>;
  /** Requests never logged (liveness probes); their errors still are. */
  ignored(req: IncomingMessage): boolean;
}

const STARTED = Symbol('requestStarted');
const REQUEST = Symbol('request');
const LOG = Symbol('requestLog');

type LoggedRequest = IncomingMessage & { id?: unknown };
type LoggedResponse = ServerResponse & {
  [STARTED]?: number;
  [REQUEST]?: LoggedRequest;
  [LOG]?: RequestLog;
  err?: Error;
};
type RequestLog = (res: LoggedResponse, error?: Error) => void;

/**
 * pino-http's request logging (its `loggingMiddleware` and `onResFinished`, with the options
 * `pinoOptions` gives it: custom level, messages and error object, `customAttributeKeys` of
 * `reqId` only, no `customProps`), the same line written at the same moment, with nothing built
 * for a line the level discards. pino-http made a child logger per request (its `req` binding
 * serialized and stringified at once), three closures and the line's fields and message for
 * every answer: with the service at its usual level (successes at debug) that was the largest
 * share of the HTTP stack's CPU per command, for lines never written. Here the child logger is
 * made at the answer, only when its level is written; its binding is the same (the request's id,
 * method and URL as it came, none of which changes while it is served).
 *
 * `req.log`/`res.log` (pino-http's per-request loggers) are not set: nothing in the service reads
 * them (application lines do not carry the request id, see `loggingOptions`).
 */
export function lazyRequestLog(logger: Logger, hooks: RequestLogHooks) {
  const written: RequestLog = (res, error) => {
    const req = res[REQUEST] as LoggedRequest;
    const level = hooks.level(req, res, error);
    if (!logger.isLevelEnabled(level)) return;
    const responseTime = Date.now() - (res[STARTED] as number);
    const log = logger.child({ req });
    if (error || res.err || res.statusCode >= 500) {
      const failure = error || res.err || new Error(`failed with status code ${res.statusCode}`);
      log[level](
        hooks.errorObject(req, res, failure, { res, err: failure, responseTime }),
        hooks.errorMessage(req, res, failure),
      );
      return;
    }
    log[level]({ res, responseTime }, hooks.successMessage(req, res));
  };

  return function requestLog(req: LoggedRequest, res: LoggedResponse, next?: () => void): void {
    req.id = req.id || hooks.genReqId(req, res);
    res[STARTED] = res[STARTED] || Date.now();
    res[REQUEST] = req;
    res[LOG] = written;
    if (!hooks.ignored(req)) {
      res.on('close', answered);
      res.on('finish', answered);
    }
    res.on('error', answered);
    if (next) next();
  };
}

/** One shared listener (no closure per request): the first of finish, close or error logs. */
function answered(this: LoggedResponse, error?: Error): void {
  this.removeListener('close', answered);
  this.removeListener('finish', answered);
  this.removeListener('error', answered);
  (this[LOG] as RequestLog)(this, error);
}
