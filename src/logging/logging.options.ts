import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import pretty from 'pino-pretty';
import { ensureWritableFile } from '../common/writable-path';
import type { LoggingConfig } from '../config/studio-config';
import { lazyRequestLog, type RequestLogHooks } from './request-log';

const REQUEST_ID_HEADER = 'x-request-id';

/** Nest's start-up chatter (one line per route and module): useful when debugging, noise otherwise. */
const START_UP_CONTEXTS = new Set(['RouterExplorer', 'RoutesResolver', 'InstanceLoader']);
const INFO = 30;

/**
 * Service logs: pretty lines for a person at a terminal, JSON for log shippers, written to stdout
 * or to LOG_FILE (test runs: jest's output keeps only jest's lines). Credentials never reach the
 * log.
 *
 * nestjs-pino gives Nest's Logger its pino logger; its own per-request middleware is left out
 * (`forRoutes: []`): it binds each request to an AsyncLocalStorage, and on Node 20 that turns on
 * promise hooks for every promise of the process. Measured on the HTTP command bench, that alone
 * took a quarter of the service's time per command. Requests are logged by `requestLogging`.
 */
export function loggingOptions(logging: LoggingConfig): Params {
  return { pinoHttp: [pinoOptions(logging), destination(logging)], forRoutes: [] };
}

/**
 * The HTTP request log (pino-http's logger and lines, written by `lazyRequestLog`), the first
 * middleware of every request: one line per answer (level by `requestLogLevel`) with a request
 * id, taken from the caller's X-Request-Id when it looks sane, otherwise generated, and echoed back in the response header. Application lines
 * written while a request is served do not repeat its id (see `loggingOptions`); the lines that
 * matter there carry their own context (the security log: account and address).
 */
export function requestLogging(logging: LoggingConfig) {
  const { logger } = pinoHttp(pinoOptions(logging), destination(logging));
  return lazyRequestLog(logger, REQUEST_LOG);
}

/**
 * The log of the start-up before the service's logger exists (which step it is in, what it waits
 * for): the same stream and format, context `Bootstrap`.
 */
export function startupLogger(logging: LoggingConfig): pino.Logger {
  const options = pinoOptions(logging);
  return pino(
    { level: options.level, base: options.base, timestamp: options.timestamp },
    destination(logging),
  ).child({ context: 'Bootstrap' });
}

/** One stream per configuration: the request log and Nest's logger write through the same one. */
const destinations = new WeakMap<LoggingConfig, pino.DestinationStream>();

function destination(logging: LoggingConfig): pino.DestinationStream {
  let stream = destinations.get(logging);
  if (!stream) {
    stream = openDestination(logging);
    destinations.set(logging, stream);
  }
  return stream;
}

function openDestination(logging: LoggingConfig): pino.DestinationStream {
  if (logging.file) ensureWritableFile('LOG_FILE', logging.file);
  const target = logging.file
    ? pino.destination({ dest: logging.file, sync: true })
    : pino.destination({ dest: 1, sync: true });
  target.on('error', droppingLines(logging.file ?? 'stdout'));
  if (logging.format === 'json') return target;
  return pretty({
    destination: target,
    // Colours only where the terminal shows them (pino-pretty's own check), never in a file.
    ...(logging.file ? { colorize: false } : {}),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context,req,res,responseTime,requestId',
    messageFormat: prettyMessage,
    singleLine: true,
    sync: true,
  });
}

/**
 * A pretty line's message: `context: msg`, its control characters escaped, so that text a person
 * typed (a supervisor's reason) can neither break the line nor forge one that looks like the
 * service's own. (JSON lines escape them already.)
 */
export function prettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const context = typeof log.context === 'string' ? `${log.context}: ` : '';
  const message = log[messageKey];
  const body =
    typeof message === 'string' ? message : message === undefined ? '' : JSON.stringify(message);
  // eslint-disable-next-line no-control-regex
  return `${context}${body}`.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, escaped);
}

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(c: string): string {
  return ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** How often a log that cannot be written is said to be (stderr), while it lasts. */
const DROPPED_NOTICE_MS = 60_000;

/**
 * A log that cannot be written (a full disk, a closed pipe) loses its lines and the service runs
 * on: logging must not stop tables. Said on stderr (the service manager's journal) at the first
 * lost line and once a minute while it lasts; the lines written again once the disk has room.
 */
export function droppingLines(
  where: string,
  say: (line: string) => unknown = (line) => process.stderr.write(line),
) {
  let dropped = 0;
  let saidAt = -Infinity;
  return (error: NodeJS.ErrnoException) => {
    dropped += 1;
    const now = performance.now();
    if (now - saidAt < DROPPED_NOTICE_MS) return;
    saidAt = now;
    try {
      say(
        `Log lines to ${where} cannot be written (${error.code ?? error.message}): ${dropped} lost so far; the service runs on\n`,
      );
    } catch {
      // stderr is gone as well: nothing left to tell.
    }
  };
}

type PinoHttpOptions = Extract<Params['pinoHttp'], unknown[]>[0];

/** pino-http's stand-in error for a 5xx answer that had no error of its own. */
function isStatusOnly(error: Error): boolean {
  return /^failed with status code \d+$/.test(error.message);
}

/**
 * Successful requests at debug (a demo player's bet is not news), and so are the 409s: a bet after
 * betting closed or a decision outside its window is the table's rules answering the caller, who
 * gets the code (counted by status in studio_http_request_duration_seconds). Other refusals (bad
 * input, credentials, unknown tables) at info, a 503 (the database is away: a state the service
 * reports and leaves by itself, said once by the outage's own lines) at warn, failures at error.
 */
export function requestLogLevel(
  status: number,
  error?: Error,
): 'debug' | 'info' | 'warn' | 'error' {
  if (status === 503 && (!error || isStatusOnly(error))) return 'warn';
  if (error || status >= 500) return 'error';
  if (status === 409 || status < 400) return 'debug';
  return 'info';
}

/** The request log's id, level, messages and error object (see `requestLogging`). */
const REQUEST_LOG: RequestLogHooks = {
  genReqId(req, res) {
    const given = req.headers[REQUEST_ID_HEADER];
    const id =
      typeof given === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(given) ? given : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, id);
    return id;
  },
  level: (_req, res, error) => requestLogLevel(res.statusCode, error),
  successMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode}`,
  errorMessage: (req, res, error) =>
    `${req.method} ${urlOf(req)} ${res.statusCode}` +
    (isStatusOnly(error) ? '' : `: ${error.message}`),
  errorObject: (_req, _res, error, fields) =>
    isStatusOnly(error) ? { ...fields, err: undefined } : fields,
  ignored: (req) => (req.url ?? '').startsWith('/health'),
};

function pinoOptions(logging: LoggingConfig): PinoHttpOptions {
  return {
    level: logging.level,
    base: { service: 'live-dealer-studio' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    hooks: {
      logMethod(args, method, level) {
        const first = args[0] as unknown;
        const context =
          typeof first === 'object' && first !== null
            ? (first as { context?: unknown }).context
            : undefined;
        if (level === INFO && typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
          return this.debug(...(args as Parameters<typeof this.debug>));
        }
        return method.apply(this, args);
      },
    },
    genReqId: REQUEST_LOG.genReqId,
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: REQUEST_LOG.level,
    customSuccessMessage: REQUEST_LOG.successMessage,
    customErrorMessage: REQUEST_LOG.errorMessage,
    // pino-http makes up an error for any 5xx answer; its stack is pino-http's own, not news.
    customErrorObject: REQUEST_LOG.errorObject,
    // A request is logged as id, method and URL: headers carry credentials (bearer tokens,
    // X-Platform-Key) and nothing in them is worth a log line. Read from the request itself (not
    // wrapped: pino-http's standard serializer first copies headers, address and query, for every
    // request, into an object these three fields are then picked from). The URL as it came, not
    // as a mounted middleware (the API docs) rewrote it.
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({
        id: req.id,
        method: req.method,
        url: urlOf(req),
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-platform-key"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    autoLogging: { ignore: REQUEST_LOG.ignored },
  };
}

/**
 * The URL as the request came (Express keeps it as originalUrl; a mounted middleware's is cut),
 * without its query: a client that puts its platform key or session token there (refused: only
 * headers carry credentials) must not leave it in the log for anyone who reads it.
 */
function urlOf(req: IncomingMessage): string | undefined {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url;
  const query = url?.indexOf('?') ?? -1;
  return url && query >= 0 ? `${url.slice(0, query)}?[query not logged]` : url;
}
