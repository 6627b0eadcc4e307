import type { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import type { Clock } from '../clock/clock';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The sign-in counters in PostgreSQL, so that every instance behind a load balancer counts the same
 * attempts: @nestjs/throttler's storage (fixed windows with a block) and the per-username failure
 * count with its lockout.
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
    await this.dataSource.query(
      `DELETE FROM sign_in_failures
        WHERE last_failure_at < $1 AND (locked_until IS NULL OR locked_until <= $2)`,
      [new Date(now.getTime() - FORGET_FAILURES_AFTER_MS), now],
    );
  }
}

/** Now and then, counters whose window and block are over go (one row per username and address). */
const PRUNE_EVERY = 500;
/** Failure counts untouched this long are forgotten (locked usernames stay until unlocked). */
const FORGET_FAILURES_AFTER_MS = 24 * 3600_000;

/** Failed sign-ins in a row per username, and the lockout they lead to. */
export class SignInFailuresRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** When the username's lockout ends, if it is locked at `now`. */
  async lockedUntil(username: string, now: Date): Promise<Date | undefined> {
    const rows: Array<{ locked_until: Date }> = await this.dataSource.query(
      `SELECT locked_until FROM sign_in_failures WHERE username = $1 AND locked_until > $2`,
      [username, now],
    );
    return rows[0] ? new Date(rows[0].locked_until) : undefined;
  }

  /**
   * Counts one more failure; at `threshold` the username is locked until `now + lockMs` and the
   * count starts again. Returns the lockout's end when this failure caused one.
   */
  async recordFailure(
    username: string,
    now: Date,
    threshold: number,
    lockMs: number,
  ): Promise<Date | undefined> {
    const lockEnd = new Date(now.getTime() + lockMs);
    const rows: Array<{ locked_until: Date | null }> = await this.dataSource.query(
      `INSERT INTO sign_in_failures AS f (username, failures, last_failure_at, locked_until)
       VALUES ($1, 1, $2, CASE WHEN $3 <= 1 THEN $4::timestamptz END)
       ON CONFLICT (username) DO UPDATE SET
         failures = CASE WHEN f.failures + 1 >= $3 THEN 0 ELSE f.failures + 1 END,
         last_failure_at = $2,
         locked_until = CASE WHEN f.failures + 1 >= $3 THEN $4::timestamptz ELSE f.locked_until END
       RETURNING locked_until`,
      [username, now, threshold, lockEnd],
    );
    const until = rows[0]?.locked_until;
    return until && new Date(until).getTime() === lockEnd.getTime() ? lockEnd : undefined;
  }

  async clear(username: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM sign_in_failures WHERE username = $1`, [username]);
  }
}
