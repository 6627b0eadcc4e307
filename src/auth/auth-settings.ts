import type { EnvReader } from '../config/env-reader';

export interface SignInProtectionSettings {
  /** Sign-in attempts one username may make per window (any outcome), then 429 + Retry-After. */
  accountLimit: number;
  /** Sign-in attempts one client address may make per window. */
  addressLimit: number;
  windowMs: number;
  /** Failed sign-ins in a row after which the username is locked... */
  lockoutFailures: number;
  /** ...for this long (the right password is refused too). */
  lockoutMs: number;
}

export interface AuthSettings {
  sessionTtlMs: number;
  /** Seed dealer/supervisor/auditor demo users (embedded demo only; see README). */
  demoUsers: boolean;
  signIn: SignInProtectionSettings;
  /** How often open console streams re-check their token (and send a heartbeat). */
  streamHeartbeatMs: number;
  /** Open console streams one user may hold; a further one is refused. */
  maxStreamsPerUser: number;
}

/** The auth part of the configuration; each value is range-checked at start-up. */
export function readAuthSettings(read: EnvReader): AuthSettings {
  return {
    sessionTtlMs: read.integer('SESSION_TTL_MINUTES', 12 * 60, 1, 7 * 24 * 60) * 60_000,
    // Well-known demo passwords are only acceptable on the embedded, loopback-only demo.
    demoUsers: read.boolean('DEMO_USERS', !read.raw('DATABASE_URL')),
    signIn: {
      accountLimit: read.integer('SIGNIN_ACCOUNT_LIMIT', 30, 1, 10_000),
      addressLimit: read.integer('SIGNIN_ADDRESS_LIMIT', 300, 1, 100_000),
      windowMs: read.integer('SIGNIN_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
      lockoutFailures: read.integer('SIGNIN_LOCKOUT_FAILURES', 10, 1, 1000),
      lockoutMs: read.integer('SIGNIN_LOCKOUT_SECONDS', 15 * 60, 1, 7 * 86_400) * 1000,
    },
    streamHeartbeatMs: read.integer('CONSOLE_STREAM_HEARTBEAT_MS', 15_000, 100, 120_000),
    maxStreamsPerUser: read.integer('CONSOLE_STREAMS_PER_USER', 8, 1, 1000),
  };
}
