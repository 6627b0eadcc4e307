/**
 * Sign-in protection that an attacker cannot turn against the staff, as pure decisions over the
 * stored state (times in epoch milliseconds):
 *
 * - per (account, address): after `freeFailures` failures in a row each further attempt waits a
 *   delay that doubles from `delayMs` up to `maxDelayMs`; at `lockoutFailures` the pair is locked
 *   for `lockoutMs`. Only that address is kept out: the owner signing in from another address, which
 *   has no failures, is not affected;
 * - per account, against guessing spread over many addresses: a leaky bucket of `accountCeiling`
 *   failures that drains in `accountWindowMs`. Once it is full the account is slowed, never
 *   locked: an attempt from an address that has not signed in to it before waits until the bucket
 *   has drained by one (`accountWindowMs / accountCeiling`); addresses it was signed in from are
 *   exempt. So in any window at most about twice the ceiling fail: the ceiling at once, as much
 *   again as it drains.
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
}

/** One account from one client address. */
export interface PairState {
  failures: number;
  retryAt: number | null;
  lockedUntil: number | null;
  lastAttemptAt: number | null;
  lastSuccessAt: number | null;
}

/** One account from everywhere: its failures in the bucket (draining) as of `updatedAt`. */
export interface AccountState {
  failures: number;
  updatedAt: number;
}

export type Admission =
  | {
      admitted: true;
      pair: PairState;
      account: AccountState;
      /** A failure of this attempt locks the pair out. */
      locksOnFailure: boolean;
      /** A failure of this attempt fills the account's bucket: the next attempt is slowed. */
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

/** The bucket at `now`: drained by one failure every accountWindowMs / accountCeiling. */
function drained(account: AccountState, now: number, policy: SignInPolicy): AccountState {
  const drainMs = policy.accountWindowMs / policy.accountCeiling;
  const elapsed = Math.max(0, now - account.updatedAt);
  return { failures: Math.max(0, account.failures - elapsed / drainMs), updatedAt: now };
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
  const account = drained(storedAccount, now, policy);
  if (account.failures + 1 > policy.accountCeiling && !knownAddress(pair, now)) {
    const drainMs = policy.accountWindowMs / policy.accountCeiling;
    const retryAt = now + Math.ceil((account.failures + 1 - policy.accountCeiling) * drainMs);
    return { admitted: false, reason: 'account-slowed', retryAt };
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
    slowsOnFailure:
      account.failures + 1 <= policy.accountCeiling && account.failures + 2 > policy.accountCeiling,
  };
}

/** The right password: the pair's count is cleared and its address known; the account's undone. */
export function succeeded(
  pair: PairState,
  storedAccount: AccountState,
  now: number,
  policy: SignInPolicy,
): { pair: PairState; account: AccountState } {
  const account = drained(storedAccount, now, policy);
  return {
    pair: { ...NEW_PAIR, lastAttemptAt: now, lastSuccessAt: now },
    account: { ...account, failures: Math.max(0, account.failures - 1) },
  };
}
