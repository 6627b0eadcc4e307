import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Clock } from '../clock/clock';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** One platform's hits of the last window, oldest first, in a ring that grows as needed. */
class HitLog {
  private times = new Float64Array(16);
  private head = 0;
  size = 0;
  blockedUntil = 0;

  oldest(): number {
    return this.times[this.head];
  }

  dropOlderThan(edge: number): void {
    while (this.size > 0 && this.times[this.head] <= edge) {
      this.head = (this.head + 1) % this.times.length;
      this.size -= 1;
    }
  }

  push(at: number): void {
    if (this.size === this.times.length) this.grow();
    this.times[(this.head + this.size) % this.times.length] = at;
    this.size += 1;
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
  }

  private grow(): void {
    const bigger = new Float64Array(this.times.length * 2);
    for (let i = 0; i < this.size; i += 1) {
      bigger[i] = this.times[(this.head + i) % this.times.length];
    }
    this.times = bigger;
    this.head = 0;
  }
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/**
 * The platforms' request budgets for @nestjs/throttler, in memory, with the library's own
 * semantics (a sliding window of hits; the hit past the limit blocks the platform for
 * `blockDuration`, then its count starts again) at a constant cost per request. The library's
 * in-memory storage filters every hit of the window on every request and takes the oldest with
 * `Math.min(...hits)`: at the default 2,000 requests a second that was ~60 µs of each request,
 * and past ~125,000 hits in a window (a large PLATFORM_HTTP_RATE_LIMIT) every request failed with
 * a stack overflow. Here each hit is dropped once, when it leaves the window.
 */
export class PlatformRateStorage implements ThrottlerStorage {
  private readonly logs = new Map<string, HitLog>();

  constructor(private readonly clock: Clock) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.clock.now().getTime();
    const id = `${throttlerName}:${key}`;
    let log = this.logs.get(id);
    if (!log) {
      log = new HitLog();
      this.logs.set(id, log);
    }
    if (log.blockedUntil <= now) {
      if (log.blockedUntil > 0) {
        // The block is over: the count starts again, as the library's own storage does.
        log.blockedUntil = 0;
        log.clear();
      }
      log.dropOlderThan(now - ttl);
      log.push(now);
      if (log.size > limit) log.blockedUntil = now + Math.max(blockDuration, 1);
    }
    return Promise.resolve(answer(log, now, ttl));
  }
}

/** What the throttler guard reads of a platform's log at `now`. */
function answer(log: HitLog, now: number, ttl: number): ThrottlerStorageRecord {
  const isBlocked = log.blockedUntil > now;
  return {
    totalHits: log.size,
    timeToExpire: seconds(log.oldest() + ttl - now),
    isBlocked,
    timeToBlockExpire: isBlocked ? Math.max(1, seconds(log.blockedUntil - now)) : 0,
  };
}
