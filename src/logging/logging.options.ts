import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { LogLevel } from '../config/studio-config';

const REQUEST_ID_HEADER = 'x-request-id';

/**
 * JSON logs on stdout with a request id on every HTTP log line. The id is taken from the caller's
 * X-Request-Id when it looks sane, otherwise generated, and echoed back in the response header.
 * Credentials never reach the log.
 */
export function loggingOptions(level: LogLevel): Params {
  return {
    pinoHttp: {
      level,
      base: { service: 'live-dealer-studio' },
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const given = req.headers[REQUEST_ID_HEADER];
        const id =
          typeof given === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(given) ? given : randomUUID();
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      customAttributeKeys: { reqId: 'requestId' },
      // A request is logged as id, method and URL: headers carry credentials (bearer tokens,
      // X-Platform-Key) and nothing in them is worth a log line.
      serializers: {
        req: (req: { id?: unknown; method?: string; url?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
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
      autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
    },
  };
}
