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
  accountWindowMs: 3_600_000,
  accountSlowMs: 5_000,
};
const T0 = Date.UTC(2026, 11, 1, 12);
const newAccount = (at = T0): AccountState => ({
  windowStartedAt: at,
  failures: 0,
  nextSlowAttemptAt: null,
});

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
    expect(succeeded(a.pair, a.account, T0)).toEqual({
      pair: { ...NEW_PAIR, lastAttemptAt: T0, lastSuccessAt: T0 },
      account: { windowStartedAt: T0, failures: 5, nextSlowAttemptAt: null },
    });
  });

  it('slows an account past its ceiling for new addresses, one attempt per accountSlowMs, never locks it', () => {
    const over: AccountState = { windowStartedAt: T0, failures: 20, nextSlowAttemptAt: null };
    const first = admit(NEW_PAIR, over, T0 + 1, POLICY);
    expect(first).toMatchObject({
      admitted: true,
      account: { nextSlowAttemptAt: T0 + 5_001, failures: 21 },
    });
    if (!first.admitted) return;
    const second = admit(NEW_PAIR, first.account, T0 + 2, POLICY);
    expect(second).toEqual({ admitted: false, reason: 'account-slowed', retryAt: T0 + 5_001 });
    expect(admit(NEW_PAIR, first.account, T0 + 5_001, POLICY).admitted).toBe(true);
    // The address the owner signed in from is not slowed.
    const known = { ...NEW_PAIR, lastSuccessAt: T0 - 86_400_000 };
    expect(admit(known, first.account, T0 + 2, POLICY).admitted).toBe(true);
    const forgotten = { ...NEW_PAIR, lastSuccessAt: T0 - KNOWN_ADDRESS_MS };
    expect(admit(forgotten, first.account, T0 + 2, POLICY).admitted).toBe(false);
  });

  it('says when a failure brings the account to its ceiling, and starts a new window after accountWindowMs', () => {
    const near: AccountState = { windowStartedAt: T0, failures: 19, nextSlowAttemptAt: null };
    expect(admit(NEW_PAIR, near, T0 + 1, POLICY)).toMatchObject({
      admitted: true,
      slowsOnFailure: true,
    });
    const over: AccountState = { windowStartedAt: T0, failures: 50, nextSlowAttemptAt: T0 + 9_000 };
    expect(admit(NEW_PAIR, over, T0 + 3_600_000, POLICY)).toMatchObject({
      admitted: true,
      account: { windowStartedAt: T0 + 3_600_000, failures: 1 },
      slowsOnFailure: false,
    });
  });
});
