import { settleWithin } from '../common/settle-within';
import type { OutboxLag } from '../outbox/outbox-relay';
import type { DatabaseReadings, HoldReading } from './operational-metrics';

/** The database reads behind the metrics. */
export interface DatabaseMetricReads {
  lag(): Promise<OutboxLag>;
  inboxWaiting(): Promise<Array<{ tableId: string; waiting: number }>>;
  hold(): Promise<HoldReading[]>;
}

export interface Snapshot {
  up: boolean;
  readings?: DatabaseReadings;
  lag?: OutboxLag;
}

/**
 * What the database says, read once per scrape under a deadline: an unreachable or stuck database
 * makes `studio_database_up` 0 and the database-backed series keep their last values, while the
 * scrape itself still answers (a failed scrape would read as the instance being down). A read still
 * running from an earlier scrape is not started again. The hold report (200 rounds per table) is
 * recomputed at most every `holdEveryMs`.
 */
export class DatabaseSnapshot {
  private current: Snapshot = { up: false };
  private inflight?: Promise<void>;
  private hold?: { at: number; readings: HoldReading[] };

  constructor(
    private readonly reads: DatabaseMetricReads,
    private readonly now: () => number,
    private readonly deadlineMs = 1_500,
    private readonly holdEveryMs = 30_000,
  ) {}

  get snapshot(): Snapshot {
    return this.current;
  }

  async refresh(): Promise<void> {
    this.inflight ??= this.read().finally(() => (this.inflight = undefined));
    if ((await settleWithin(this.inflight, this.deadlineMs, 'late')) === 'late') {
      this.current = { ...this.current, up: false };
    }
  }

  private async read(): Promise<void> {
    try {
      const [lag, inboxWaiting, hold] = await Promise.all([
        this.reads.lag(),
        this.reads.inboxWaiting(),
        this.holdReadings(),
      ]);
      this.current = { up: true, lag, readings: { inboxWaiting, hold } };
    } catch {
      this.current = { ...this.current, up: false };
    }
  }

  private async holdReadings(): Promise<HoldReading[]> {
    const at = this.now();
    if (this.hold && at - this.hold.at < this.holdEveryMs) return this.hold.readings;
    const readings = await this.reads.hold();
    this.hold = { at, readings };
    return readings;
  }
}
