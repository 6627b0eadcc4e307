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
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
    },
  };
}
