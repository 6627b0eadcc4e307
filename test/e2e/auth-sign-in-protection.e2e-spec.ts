import { Logger } from '@nestjs/common';
import type { RunningStudio } from '../../src/bootstrap';
import { CreateUser } from '../../src/auth/create-user/create-user.use-case';
import { signInFrom } from '../support/http-from';
import { startTestStudio } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const STRONG = 'Tr1cky-Casino-Floor';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sign-in protection on the real service and PostgreSQL, with clients at different loopback
 * addresses: an attacker cannot keep the staff out (docs/security.md).
 */
describe('sign-in protection', () => {
  let db: TestDatabase;
  let studio: RunningStudio;

  beforeAll(async () => {
    db = await createTestDatabase('sign_in_protection');
    studio = await startTestStudio({
      databaseUrl: db.url,
      env: {
        DEMO_USERS: 'true',
        // Short delays and lockouts so that they fit in a test.
        // 20 attempts per address per minute, whatever the accounts (each test's addresses make fewer).
        SIGNIN_ADDRESS_LIMIT: '20',
        SIGNIN_WINDOW_SECONDS: '60',
        SIGNIN_FREE_FAILURES: '2',
        SIGNIN_DELAY_SECONDS: '1',
        SIGNIN_MAX_DELAY_SECONDS: '2',
        SIGNIN_LOCKOUT_FAILURES: '5',
        SIGNIN_LOCKOUT_SECONDS: '6',
        // A bucket of 12 failures per account that drains one every 10 s.
        SIGNIN_ACCOUNT_CEILING: '12',
        SIGNIN_ACCOUNT_WINDOW_SECONDS: '120',
      },
    });
    for (const [username, role] of [
      ['croupier', 'dealer'],
      ['floor', 'supervisor'],
    ]) {
      const created = await studio.app
        .get(CreateUser)
        .execute({ username, role, password: STRONG });
      expect(created.ok).toBe(true);
    }
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  async function login(username: string, password: string): Promise<string> {
    const answer = await signInFrom('127.0.0.1', studio.url, username, password);
    expect(answer.status).toBe(200);
    return answer.body.token as string;
  }

  /** The security log's sign-in lines written while `work` runs. */
  async function securityLines(work: () => Promise<void>): Promise<Array<Record<string, unknown>>> {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await work();
      return warn.mock.calls
        .map(([line]) => line as Record<string, unknown>)
        .filter((l) => l?.event === 'sign-in-refused');
    } finally {
      warn.mockRestore();
    }
  }

  async function signInEvents(): Promise<Record<string, number>> {
    const supervisor = await login('supervisor', 'supervisor-demo');
    const response = await fetch(`${studio.url}/metrics`, {
      headers: { authorization: `Bearer ${supervisor}` },
    });
    const text = await response.text();
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(/^studio_sign_in_events_total\{event="([a-z-]+)"\} (\d+)$/gm)) {
      counts[m[1]] = Number(m[2]);
    }
    return counts;
  }

  it('delays and then locks out the address that guesses, never the owner at another address', async () => {
    const attacker = '127.0.0.2';
    const owner = '127.0.0.3';
    const before = await signInEvents();
    const seen: string[] = [];
    const delays: number[] = [];
    let lockedFor = 0;
    const lines = await securityLines(async () => {
      for (let i = 0; i < 30 && !lockedFor; i += 1) {
        const answer = await signInFrom(attacker, studio.url, 'croupier', `wrong-${i}`);
        seen.push(`${answer.status}:${String(answer.body.error)}`);
        const retryAfter = Number(answer.headers['retry-after']);
        if (answer.body.error === 'too-many-attempts') {
          delays.push(retryAfter);
          await sleep(retryAfter * 1000 + 100);
        }
        if (answer.body.error === 'account-locked') lockedFor = retryAfter;
      }
      // The right password from the locked-out address is refused too...
      const during = await signInFrom(attacker, studio.url, 'croupier', STRONG);
      expect(during.status).toBe(429);
      expect(during.body).toMatchObject({ error: 'account-locked' });
      // ...but not from the owner's address, which has no failures.
      const ownerIn = await signInFrom(owner, studio.url, 'croupier', STRONG);
      expect(ownerIn.status).toBe(200);
    });
    // Two free failures, then a wait after each that doubles up to the 2 s cap; locked at five.
    expect(seen).toEqual([
      '401:invalid-credentials',
      '401:invalid-credentials',
      '401:invalid-credentials',
      '429:too-many-attempts',
      '401:invalid-credentials',
      '429:too-many-attempts',
      '401:invalid-credentials',
      '429:account-locked',
    ]);
    expect(delays).toEqual([1, 2]);
    expect(lockedFor).toBeGreaterThanOrEqual(5);
    expect(lockedFor).toBeLessThanOrEqual(6);

    // Every refusal, throttle and lockout is a structured warn line; no password in any of them.
    const reasons = lines.map((l) => l.reason);
    expect(reasons.filter((r) => r === 'wrong-password')).toHaveLength(5);
    expect(reasons.filter((r) => r === 'delayed')).toHaveLength(2);
    expect(reasons.filter((r) => r === 'locked-out-now')).toHaveLength(1);
    expect(reasons.filter((r) => r === 'locked-out')).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatchObject({ username: 'croupier', address: attacker });
    expect(JSON.stringify(lines)).not.toContain('wrong-1');
    expect(JSON.stringify(lines)).not.toContain(STRONG);
    // ...and a metric.
    const after = await signInEvents();
    for (const [event, n] of [
      ['wrong-password', 5],
      ['delayed', 2],
      ['locked-out-now', 1],
      ['locked-out', 2],
    ] as const) {
      expect(`${event}: ${(after[event] ?? 0) - (before[event] ?? 0)}`).toBe(`${event}: ${n}`);
    }
    const [pair] = await studio.database.dataSource.query(
      `SELECT failures, locked_until IS NOT NULL AS locked FROM sign_in_pairs WHERE username = 'croupier' AND address = $1`,
      [attacker],
    );
    expect(pair).toEqual({ failures: 0, locked: true });

    // Once the lockout is over, the attacking address may try again (and the right password works).
    await sleep(lockedFor * 1000 + 200);
    const later = await signInFrom(attacker, studio.url, 'croupier', STRONG);
    expect(later.status).toBe(200);
  });

  it('slows an account guessed at from many addresses, never locks it, and spares the addresses it signed in from', async () => {
    const known = '127.0.0.10';
    expect((await signInFrom(known, studio.url, 'floor', STRONG)).status).toBe(200);
    const lines = await securityLines(async () => {
      // Twelve failures (the ceiling) from six addresses, two each: none of them is delayed.
      for (let a = 1; a <= 6; a += 1) {
        for (let k = 0; k < 2; k += 1) {
          const answer = await signInFrom(`127.0.1.${a}`, studio.url, 'floor', `guess-${a}-${k}`);
          expect(answer.status).toBe(401);
        }
      }
    });
    expect(lines.filter((l) => l.reason === 'account-ceiling-reached')).toHaveLength(1);
    // With the bucket full, a new address waits until it drains by one, the right password too...
    const paced = await signInFrom('127.0.1.8', studio.url, 'floor', STRONG);
    expect(paced.status).toBe(429);
    expect(paced.body).toMatchObject({ error: 'too-many-attempts' });
    expect(String(paced.body.message)).toMatch(/account/);
    const retryAfter = Number(paced.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    // ...the address the owner signed in from is not slowed...
    expect((await signInFrom(known, studio.url, 'floor', STRONG)).status).toBe(200);
    // ...and the owner at a new address gets in once the bucket allows: slowed, not locked.
    await sleep(retryAfter * 1000 + 100);
    expect((await signInFrom('127.0.1.9', studio.url, 'floor', STRONG)).status).toBe(200);
  });

  it('throttles one address spraying many accounts, and only that address', async () => {
    const before = await signInEvents();
    const seen: string[] = [];
    const lines = await securityLines(async () => {
      for (let i = 0; i < 21; i += 1) {
        const answer = await signInFrom('127.0.0.40', studio.url, `sprayed-${i}`, 'Password1');
        seen.push(`${answer.status}:${String(answer.body.error)}`);
        if (i === 20) {
          expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          expect(String(answer.body.message)).toMatch(/from this address/);
        }
      }
    });
    expect(seen.slice(0, 20)).toEqual(Array(20).fill('401:invalid-credentials'));
    expect(seen[20]).toBe('429:too-many-attempts');
    expect(lines.filter((l) => l.reason === 'throttled-per-address')).toEqual([
      expect.objectContaining({ username: 'sprayed-20', address: '127.0.0.40' }),
    ]);
    // Another address is not throttled.
    expect((await signInFrom('127.0.0.41', studio.url, 'croupier', STRONG)).status).toBe(200);
    const after = await signInEvents();
    expect((after['throttled-per-address'] ?? 0) - (before['throttled-per-address'] ?? 0)).toBe(1);
  });
});
