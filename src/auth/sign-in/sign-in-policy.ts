/**
 * Sign-in protection that an attacker cannot turn against the staff, as pure decisions over the
 * stored state (times in epoch milliseconds):
 *
 * - per (account, address): after `freeFailures` failures in a row each further attempt waits a
 *   delay that doubles from `delayMs` up to `maxDelayMs`; at `lockoutFailures` the pair is locked
 *   for `lockoutMs`. Only that address is kept out: the owner signing in from another address, which
 *   has no failures, is not affected;
 * - per account, against guessing spread over many addresses: past `accountCeiling` failures in an
 *   `accountWindowMs` window the account is slowed, never locked: addresses that have not signed in
 *   to it before get one attempt per `accountSlowMs` between them, addresses it was signed in from
 *   are exempt.
 *
 * An attempt is counted as a failure when it is admitted, before the password is checked, so a
 * burst of parallel attempts cannot all pass before the first failure is stored; a success undoes
 * that count.
 */
export interface SignInPolicy {
  freeFailures: number;
  delayMs: number;
  maxDelayMs: number;
  lockoutFailures: number;
  lockoutMs: number;
  accountCeiling: number;
  accountWindowMs: number;
  accountSlowMs: number;
}

/** One account from one client address. */
export interface PairState {
  failures: number;
  retryAt: number | null;
  lockedUntil: number | null;
  lastAttemptAt: number | null;
  lastSuccessAt: number | null;
}

/** One account from everywhere. */
export interface AccountState {
  windowStartedAt: number;
  failures: number;
  nextSlowAttemptAt: number | null;
}

export type Admission =
  | {
      admitted: true;
      pair: PairState;
      account: AccountState;
      /** A failure of this attempt locks the pair out. */
      locksOnFailure: boolean;
      /** A failure of this attempt brings the account over its ceiling. */
      slowsOnFailure: boolean;
    }
  | { admitted: false; reason: 'locked-out' | 'delayed' | 'account-slowed'; retryAt: number };

/** An address that signed in to the account within this long is the owner's: never slowed. */
export const KNOWN_ADDRESS_MS = 90 * 86_400_000;

export const NEW_PAIR: PairState = {
  failures: 0,
  retryAt: null,
  lockedUntil: null,
  lastAttemptAt: null,
  lastSuccessAt: null,
};

/** The wait after the `failures`-th failure in a row: none while free, then doubling to the cap. */
export function delayAfter(failures: number, policy: SignInPolicy): number {
  if (failures <= policy.freeFailures) return 0;
  const doublings = Math.min(failures - policy.freeFailures - 1, 30);
  return Math.min(policy.maxDelayMs, policy.delayMs * 2 ** doublings);
}

function currentWindow(account: AccountState, now: number, policy: SignInPolicy): AccountState {
  return now - account.windowStartedAt >= policy.accountWindowMs
    ? { windowStartedAt: now, failures: 0, nextSlowAttemptAt: account.nextSlowAttemptAt }
    : account;
}

function knownAddress(pair: PairState, now: number): boolean {
  return pair.lastSuccessAt !== null && now - pair.lastSuccessAt < KNOWN_ADDRESS_MS;
}

/** Whether an attempt may check its password now, and the state that counts it as a failure. */
export function admit(
  pair: PairState,
  storedAccount: AccountState,
  now: number,
  policy: SignInPolicy,
): Admission {
  if (pair.lockedUntil !== null && pair.lockedUntil > now) {
    return { admitted: false, reason: 'locked-out', retryAt: pair.lockedUntil };
  }
  if (pair.retryAt !== null && pair.retryAt > now) {
    return { admitted: false, reason: 'delayed', retryAt: pair.retryAt };
  }
  let account = currentWindow(storedAccount, now, policy);
  const slowed = account.failures >= policy.accountCeiling && !knownAddress(pair, now);
  if (slowed) {
    if (account.nextSlowAttemptAt !== null && account.nextSlowAttemptAt > now) {
      return { admitted: false, reason: 'account-slowed', retryAt: account.nextSlowAttemptAt };
    }
    account = { ...account, nextSlowAttemptAt: now + policy.accountSlowMs };
  }
  // A lockout starts the count again (its failures are set to 0 when it begins).
  const failures = pair.failures + 1;
  const locks = failures >= policy.lockoutFailures;
  const delay = locks ? 0 : delayAfter(failures, policy);
  return {
    admitted: true,
    pair: {
      ...pair,
      failures: locks ? 0 : failures,
      retryAt: delay > 0 ? now + delay : null,
      lockedUntil: locks ? now + policy.lockoutMs : null,
      lastAttemptAt: now,
    },
    account: { ...account, failures: account.failures + 1 },
    locksOnFailure: locks,
    slowsOnFailure: account.failures + 1 === policy.accountCeiling,
  };
}

/** The right password: the pair's count is cleared and its address known; the account's undone. */
export function succeeded(
  pair: PairState,
  account: AccountState,
  now: number,
): { pair: PairState; account: AccountState } {
  return {
    pair: { ...NEW_PAIR, lastAttemptAt: now, lastSuccessAt: now },
    account: { ...account, failures: Math.max(0, account.failures - 1) },
  };
}
