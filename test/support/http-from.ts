import { request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * A JSON request from a chosen loopback address (127.0.0.0/8 is all loopback on Linux), on a
 * connection of its own: how a test plays clients at different addresses against the real server.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const target = new URL(path, url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        localAddress,
        agent: false,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Signs in from `localAddress`; the answer as it came. */
export function signInFrom(
  localAddress: string,
  url: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return requestFrom(localAddress, url, '/auth/login', {
    body: { username, password },
    headers,
  });
}
