import {
  AccountState,
  admit,
  delayAfter,
  KNOWN_ADDRESS_MS,
  NEW_PAIR,
  PairState,
  SignInPolicy,
  succeeded,
} from './sign-in-policy';

const POLICY: SignInPolicy = {
  freeFailures: 3,
  delayMs: 1_000,
  maxDelayMs: 8_000,
  lockoutFailures: 8,
  lockoutMs: 900_000,
  accountCeiling: 20,
  /** The full bucket of 20 drains in an hour: one failure every 180 s. */
  accountWindowMs: 3_600_000,
};
const DRAIN_MS = 180_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const newAccount = (at = T0): AccountState => ({ failures: 0, updatedAt: at });

/** Attempts from one address, each failing as soon as it is admitted: what each one was told. */
function failFrom(pair: PairState, account: AccountState, times: number[]) {
  const seen: string[] = [];
  for (const now of times) {
    const a = admit(pair, account, now, POLICY);
    if (!a.admitted) {
      seen.push(`${a.reason}:${a.retryAt - now}`);
      continue;
    }
    seen.push(a.locksOnFailure ? 'admitted-locks' : 'admitted');
    pair = a.pair;
    account = a.account;
  }
  return { seen, pair, account };
}

describe('sign-in policy', () => {
  it('lets the free failures through, then doubles the wait up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => delayAfter(n, POLICY))).toEqual([
      0, 0, 0, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
  });

  it('refuses an attempt before its delay is over and says until when', () => {
    const { seen } = failFrom(NEW_PAIR, newAccount(), [
      T0,
      T0 + 1,
      T0 + 2,
      T0 + 3,
      T0 + 4,
      T0 + 1_003,
    ]);
    expect(seen).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'admitted',
      'delayed:999',
      'admitted',
    ]);
  });

  it('locks the pair out after lockoutFailures failures, and counts again once the lock is over', () => {
    let now = T0;
    const times: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      times.push(now);
      now += 10_000; // past every delay
    }
    const { seen, pair, account } = failFrom(NEW_PAIR, newAccount(), times);
    expect(seen.at(-1)).toBe('admitted-locks');
    expect(seen.slice(0, 7)).toEqual(Array(7).fill('admitted'));
    const during = admit(pair, account, times[7] + 60_000, POLICY);
    expect(during).toEqual({ admitted: false, reason: 'locked-out', retryAt: times[7] + 900_000 });
    const after = admit(pair, account, times[7] + 900_000, POLICY);
    expect(after).toMatchObject({
      admitted: true,
      pair: { failures: 1, lockedUntil: null, retryAt: null },
    });
  });

  it('counts an attempt when it is admitted, so parallel attempts cannot all pass before a failure is stored', () => {
    let pair = NEW_PAIR;
    let account = newAccount();
    const answers: boolean[] = [];
    for (let i = 0; i < 10; i += 1) {
      const a = admit(pair, account, T0, POLICY); // all at the same instant, none finished yet
      answers.push(a.admitted);
      if (a.admitted) ({ pair, account } = a);
    }
    expect(answers).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });

  it('does not keep out another address of the same account', () => {
    const attacker = failFrom(
      NEW_PAIR,
      newAccount(),
      Array.from({ length: 8 }, (_, i) => T0 + i * 10_000),
    );
    expect(attacker.seen.at(-1)).toBe('admitted-locks');
    const owner = admit(NEW_PAIR, attacker.account, T0 + 80_000, POLICY);
    expect(owner.admitted).toBe(true);
  });

  it('clears the pair on success and remembers its address; undoes the account count', () => {
    const a = admit({ ...NEW_PAIR, failures: 2 }, { ...newAccount(), failures: 5 }, T0, POLICY);
    if (!a.admitted) throw new Error('admitted expected');
    expect(succeeded(a.pair, a.account, T0 + DRAIN_MS, POLICY)).toEqual({
      pair: { ...NEW_PAIR, lastAttemptAt: T0 + DRAIN_MS, lastSuccessAt: T0 + DRAIN_MS },
      account: { failures: 4, updatedAt: T0 + DRAIN_MS },
    });
  });

  it('slows an account with a full bucket for new addresses until it drains by one, never locks it', () => {
    const full: AccountState = { failures: 20, updatedAt: T0 };
    const slowed = admit(NEW_PAIR, full, T0 + 1_000, POLICY);
    expect(slowed).toEqual({
      admitted: false,
      reason: 'account-slowed',
      retryAt: T0 + 1_000 + (DRAIN_MS - 1_000),
    });
    const drainedByOne = admit(NEW_PAIR, full, T0 + DRAIN_MS, POLICY);
    expect(drainedByOne).toMatchObject({
      admitted: true,
      account: { failures: 20, updatedAt: T0 + DRAIN_MS },
      slowsOnFailure: true,
    });
    // The address the owner signed in from is not slowed...
    const known = { ...NEW_PAIR, lastSuccessAt: T0 - 86_400_000 };
    expect(admit(known, full, T0 + 1_000, POLICY).admitted).toBe(true);
    // ...for KNOWN_ADDRESS_MS after that sign-in.
    const forgotten = { ...NEW_PAIR, lastSuccessAt: T0 + 1_000 - KNOWN_ADDRESS_MS };
    expect(admit(forgotten, full, T0 + 1_000, POLICY).admitted).toBe(false);
  });

  it('lets the ceiling fail at once and then as many again as the bucket drains in a window: never more', () => {
    // 1,000 addresses new to the account, each trying once a second for two hours.
    let account = newAccount();
    const failuresAt: number[] = [];
    for (let t = T0; t < T0 + 2 * 3_600_000; t += 1_000) {
      const a = admit(NEW_PAIR, account, t, POLICY);
      if (a.admitted) {
        account = a.account;
        failuresAt.push(t);
      }
    }
    const inHour = (from: number) =>
      failuresAt.filter((t) => t >= from && t < from + 3_600_000).length;
    expect(inHour(T0)).toBeLessThanOrEqual(2 * POLICY.accountCeiling);
    expect(inHour(T0)).toBeGreaterThanOrEqual(2 * POLICY.accountCeiling - 1);
    expect(Math.max(...failuresAt.map(inHour))).toBeLessThanOrEqual(2 * POLICY.accountCeiling);
    expect(inHour(T0 + 3_600_000)).toBeLessThanOrEqual(POLICY.accountCeiling + 1);
  });

  it('says when a failure fills the bucket', () => {
    expect(admit(NEW_PAIR, { failures: 18, updatedAt: T0 }, T0, POLICY)).toMatchObject({
      admitted: true,
      slowsOnFailure: false,
    });
    expect(admit(NEW_PAIR, { failures: 19, updatedAt: T0 }, T0, POLICY)).toMatchObject({
      admitted: true,
      slowsOnFailure: true,
    });
  });
});
