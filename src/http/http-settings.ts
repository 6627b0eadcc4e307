import { isIP } from 'node:net';
import { ConfigError } from '../common/config-error';
import type { EnvReader } from '../config/env-reader';

/** Express's names for address ranges (proxy-addr): loopback, link-local, unique-local. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Which proxies in front of the service are believed about the client (X-Forwarded-For): none,
 * the nearest `hops`, or those whose address is in one of the ranges (express `trust proxy`).
 */
export type TrustProxy = false | number | string[];

export interface HttpLimits {
  /** A request's headers must have arrived within this long of its first byte (slowloris). */
  headersTimeoutMs: number;
  /** A whole request (headers and body) must have arrived within this long. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold; the next one is refused with a 503. */
  maxConnectionsPerAddress: number;
  /** Largest request body, in bytes: of a sign-in, of a command (bets, decisions, table actions), of anything else. */
  bodyLimits: { signIn: number; commands: number; other: number };
  trustProxy: TrustProxy;
}

/** The HTTP server's limits, each range-checked at start-up (docs/security.md). */
export function readHttpLimits(read: EnvReader): HttpLimits {
  const headersTimeoutMs = read.integer('HTTP_HEADERS_TIMEOUT_MS', 10_000, 500, 300_000);
  const requestTimeoutMs = read.integer('HTTP_REQUEST_TIMEOUT_MS', 30_000, 500, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      `HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must not be below HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}): the headers are part of the request`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: read.integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnectionsPerAddress: read.integer('HTTP_MAX_CONNECTIONS_PER_ADDRESS', 100, 1, 100_000),
    bodyLimits: {
      signIn: read.integer('HTTP_BODY_LIMIT_SIGNIN_BYTES', 4 * 1024, 512, 1024 * 1024),
      commands: read.integer('HTTP_BODY_LIMIT_COMMAND_BYTES', 16 * 1024, 1024, 10 * 1024 * 1024),
      other: read.integer('HTTP_BODY_LIMIT_BYTES', 100 * 1024, 1024, 100 * 1024 * 1024),
    },
    trustProxy: trustProxy(read),
  };
}

function trustProxy(read: EnvReader): TrustProxy {
  const value = read.optionalString('TRUST_PROXY');
  if (value === undefined || value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) {
      throw new ConfigError(
        `TRUST_PROXY as a number of proxy hops must be 1 to 10 (got "${value}")`,
      );
    }
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (!NAMED_RANGES.includes(entry) && !isAddressRange(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a number of proxy hops (1-10), or a comma-separated list of proxy addresses or CIDR ranges (10.0.0.0/8, ::1, loopback); "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

function isAddressRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}
