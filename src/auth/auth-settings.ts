import { ConfigError } from '../common/config-error';
import type { EnvReader } from '../config/env-reader';
import type { SignInPolicy } from './sign-in/sign-in-policy';

export interface SignInProtectionSettings extends SignInPolicy {
  /** Sign-in attempts one client address may make per window, for any accounts. */
  addressLimit: number;
  windowMs: number;
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
    signIn: readSignInProtection(read),
    streamHeartbeatMs: read.integer('CONSOLE_STREAM_HEARTBEAT_MS', 15_000, 100, 120_000),
    maxStreamsPerUser: read.integer('CONSOLE_STREAMS_PER_USER', 8, 1, 1000),
  };
}

/** See docs/security.md (OWASP ASVS 2.2) for what each protects against. */
function readSignInProtection(read: EnvReader): SignInProtectionSettings {
  if (read.raw('SIGNIN_ACCOUNT_LIMIT') !== undefined) {
    // It throttled a username for everyone, its owner included: an attacker's tool. Say so.
    throw new ConfigError(
      'SIGNIN_ACCOUNT_LIMIT is no longer read: attempts are limited per account and address (SIGNIN_FREE_FAILURES, SIGNIN_DELAY_SECONDS, SIGNIN_LOCKOUT_FAILURES) and per account by SIGNIN_ACCOUNT_CEILING; remove it (docs/security.md)',
    );
  }
  const seconds = (name: string, fallback: number, min: number, max: number) =>
    read.integer(name, fallback, min, max) * 1000;
  const delayMs = seconds('SIGNIN_DELAY_SECONDS', 1, 1, 3600);
  const maxDelayMs = seconds('SIGNIN_MAX_DELAY_SECONDS', 60, 1, 86_400);
  if (maxDelayMs < delayMs) {
    throw new ConfigError(
      `SIGNIN_MAX_DELAY_SECONDS (${maxDelayMs / 1000}) must not be below SIGNIN_DELAY_SECONDS (${delayMs / 1000})`,
    );
  }
  const freeFailures = read.integer('SIGNIN_FREE_FAILURES', 3, 0, 100);
  const lockoutFailures = read.integer('SIGNIN_LOCKOUT_FAILURES', 10, 1, 1000);
  if (lockoutFailures <= freeFailures) {
    throw new ConfigError(
      `SIGNIN_LOCKOUT_FAILURES (${lockoutFailures}) must be more than SIGNIN_FREE_FAILURES (${freeFailures})`,
    );
  }
  return {
    addressLimit: read.integer('SIGNIN_ADDRESS_LIMIT', 300, 1, 100_000),
    windowMs: seconds('SIGNIN_WINDOW_SECONDS', 60, 1, 86_400),
    freeFailures,
    delayMs,
    maxDelayMs,
    lockoutFailures,
    lockoutMs: seconds('SIGNIN_LOCKOUT_SECONDS', 15 * 60, 1, 7 * 86_400),
    // 50 at once and 50 more as the bucket drains: at most 100 failed attempts an hour from
    // addresses new to the account (OWASP ASVS 2.2.1).
    accountCeiling: read.integer('SIGNIN_ACCOUNT_CEILING', 50, 1, 1_000_000),
    accountWindowMs: seconds('SIGNIN_ACCOUNT_WINDOW_SECONDS', 3600, 1, 7 * 86_400),
  };
}
