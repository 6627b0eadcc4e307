import type { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import type { Clock } from '../clock/clock';
import { AccountState, KNOWN_ADDRESS_MS, PairState } from './sign-in/sign-in-policy';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The sign-in counters in PostgreSQL, so that every instance behind a load balancer counts the same
 * attempts: @nestjs/throttler's storage (fixed windows with a block, per client address) and the
 * attempts per account and per (account, address) pair that sign-in-policy.ts decides on.
 */
export class PostgresThrottlerStorage implements ThrottlerStorage {
  private calls = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** One statement per hit: a new window once the old one (and any block) is over. */
  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.clock.now();
    if (++this.calls % PRUNE_EVERY === 0) await this.prune(now);
    const windowEnd = new Date(now.getTime() + ttl);
    const blockEnd = new Date(now.getTime() + blockDuration);
    const rows: Array<{ hits: number; window_ends_at: Date; blocked_until: Date | null }> =
      await this.dataSource.query(
        `INSERT INTO sign_in_throttle AS t (key, hits, window_ends_at, blocked_until)
         VALUES ($1, 1, $3, NULL)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN t.window_ends_at <= $2 AND COALESCE(t.blocked_until <= $2, true)
                       THEN 1 ELSE t.hits + 1 END,
           window_ends_at = CASE WHEN t.window_ends_at <= $2 AND COALESCE(t.blocked_until <= $2, true)
                                 THEN $3 ELSE t.window_ends_at END,
           blocked_until = CASE WHEN t.blocked_until > $2 THEN t.blocked_until ELSE NULL END
         RETURNING hits, window_ends_at, blocked_until`,
        [`${throttlerName}:${key}`, now, windowEnd],
      );
    const row = rows[0];
    const windowEndsAt = row.window_ends_at;
    let blockedUntil = row.blocked_until;
    const hits = Number(row.hits);
    if (!blockedUntil && hits > limit) {
      blockedUntil = blockEnd;
      await this.dataSource.query(`UPDATE sign_in_throttle SET blocked_until = $2 WHERE key = $1`, [
        `${throttlerName}:${key}`,
        blockEnd,
      ]);
    }
    const seconds = (until: Date) =>
      Math.max(1, Math.ceil((new Date(until).getTime() - now.getTime()) / 1000));
    return {
      totalHits: hits,
      timeToExpire: seconds(windowEndsAt),
      isBlocked: !!blockedUntil,
      timeToBlockExpire: blockedUntil ? seconds(blockedUntil) : 0,
    };
  }

  private async prune(now: Date): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM sign_in_throttle
        WHERE window_ends_at <= $1 AND (blocked_until IS NULL OR blocked_until <= $1)`,
      [now],
    );
  }
}

/** Now and then, rows whose windows, delays and locks are over go. */
const PRUNE_EVERY = 500;
/** Failures of an (account, address) pair untouched this long are forgiven. */
const FORGET_FAILURES_AFTER_MS = 24 * 3600_000;

interface PairRow {
  failures: number;
  retry_at: Date | null;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
}

interface AccountRow {
  failures: number;
  updated_at: Date;
}

/** What a decision over the stored states returns: its answer and the states to store, if any. */
export interface AttemptsUpdate<T> {
  result: T;
  store?: { pair: PairState; account: AccountState };
}

const ms = (value: Date | null): number | null =>
  value === null ? null : new Date(value).getTime();
const at = (value: number | null): Date | null => (value === null ? null : new Date(value));

/**
 * The sign-in attempts of every account (`sign_in_accounts`) and of every (account, address)
 * pair (`sign_in_pairs`), shared by every instance. Each decision runs in one transaction with
 * both rows locked (account first, then pair: one order, no deadlock), so concurrent attempts on
 * one account are counted one after the other on every instance.
 */
export class SignInAttemptsRepository {
  private calls = 0;

  constructor(
    private readonly dataSource: DataSource,
    /** How long an account's full bucket takes to drain (rows untouched longer may go). */
    private readonly accountWindowMs: number,
  ) {}

  async update<T>(
    username: string,
    address: string,
    now: Date,
    decide: (pair: PairState, account: AccountState) => AttemptsUpdate<T>,
  ): Promise<T> {
    if (++this.calls % PRUNE_EVERY === 0) await this.prune(now);
    return this.dataSource.transaction(async (manager) => {
      const [account]: AccountRow[] = await manager.query(
        `INSERT INTO sign_in_accounts AS a (username, failures, updated_at)
         VALUES ($1, 0, $2)
         ON CONFLICT (username) DO UPDATE SET username = a.username
         RETURNING failures, updated_at`,
        [username, now],
      );
      const [pair]: PairRow[] = await manager.query(
        `INSERT INTO sign_in_pairs AS p (username, address, failures)
         VALUES ($1, $2, 0)
         ON CONFLICT (username, address) DO UPDATE SET username = p.username
         RETURNING failures, retry_at, locked_until, last_attempt_at, last_success_at`,
        [username, address],
      );
      const { result, store } = decide(
        {
          failures: pair.failures,
          retryAt: ms(pair.retry_at),
          lockedUntil: ms(pair.locked_until),
          lastAttemptAt: ms(pair.last_attempt_at),
          lastSuccessAt: ms(pair.last_success_at),
        },
        { failures: Number(account.failures), updatedAt: ms(account.updated_at)! },
      );
      if (store) {
        const { pair: p, account: a } = store;
        await manager.query(
          `UPDATE sign_in_accounts SET failures = $2, updated_at = $3 WHERE username = $1`,
          [username, a.failures, at(a.updatedAt)],
        );
        await manager.query(
          `UPDATE sign_in_pairs
              SET failures = $3, retry_at = $4, locked_until = $5, last_attempt_at = $6, last_success_at = $7
            WHERE username = $1 AND address = $2`,
          [
            username,
            address,
            p.failures,
            at(p.retryAt),
            at(p.lockedUntil),
            at(p.lastAttemptAt),
            at(p.lastSuccessAt),
          ],
        );
      }
      return result;
    });
  }

  /** Pairs whose failures are forgiven and that are no known address; accounts drained empty. */
  private async prune(now: Date): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM sign_in_pairs
        WHERE (last_attempt_at IS NULL OR last_attempt_at < $1)
          AND (locked_until IS NULL OR locked_until <= $3)
          AND (last_success_at IS NULL OR last_success_at < $2)`,
      [
        new Date(now.getTime() - FORGET_FAILURES_AFTER_MS),
        new Date(now.getTime() - KNOWN_ADDRESS_MS),
        now,
      ],
    );
    // A full bucket drains in one window: untouched that long, it is empty.
    await this.dataSource.query(`DELETE FROM sign_in_accounts WHERE updated_at < $1`, [
      new Date(now.getTime() - this.accountWindowMs),
    ]);
  }
}
