import { ConfigError } from '../common/config-error';
import { EnvReader } from '../config/env-reader';
import { readAuthSettings } from './auth-settings';

const signIn = (env: Record<string, string>) => readAuthSettings(new EnvReader(env)).signIn;

describe('sign-in protection settings', () => {
  it('defaults to delays after 3 failures, a 15-minute lockout of the address after 10, and a bucket of 50 per hour per account', () => {
    expect(signIn({})).toEqual({
      addressLimit: 300,
      windowMs: 60_000,
      freeFailures: 3,
      delayMs: 1_000,
      maxDelayMs: 60_000,
      lockoutFailures: 10,
      lockoutMs: 900_000,
      accountCeiling: 50,
      accountWindowMs: 3_600_000,
    });
  });

  it('refuses SIGNIN_ACCOUNT_LIMIT, whose throttle kept the owner out too, naming what replaced it', () => {
    expect(() => signIn({ SIGNIN_ACCOUNT_LIMIT: '30' })).toThrow(
      /^SIGNIN_ACCOUNT_LIMIT is no longer read: .*SIGNIN_ACCOUNT_CEILING/,
    );
  });

  it('refuses settings that contradict each other', () => {
    expect(() => signIn({ SIGNIN_FREE_FAILURES: '10', SIGNIN_LOCKOUT_FAILURES: '10' })).toThrow(
      new ConfigError('SIGNIN_LOCKOUT_FAILURES (10) must be more than SIGNIN_FREE_FAILURES (10)'),
    );
    expect(() => signIn({ SIGNIN_DELAY_SECONDS: '30', SIGNIN_MAX_DELAY_SECONDS: '10' })).toThrow(
      new ConfigError('SIGNIN_MAX_DELAY_SECONDS (10) must not be below SIGNIN_DELAY_SECONDS (30)'),
    );
    expect(() => signIn({ SIGNIN_ACCOUNT_CEILING: '0' })).toThrow(
      'SIGNIN_ACCOUNT_CEILING must be an integer from 1 to 1000000 (got "0")',
    );
  });
});
