import { Logger } from '@nestjs/common';
import { oneLine } from '../common/one-line';
import type { ReadingRecord } from './scanner-history.repository';

/** Where the recorder stores its batches (the scanners' history repository). */
export interface ReadingStore {
  readonly open: boolean;
  insertReadings(batch: readonly ReadingRecord[]): Promise<string[]>;
}

/**
 * How long a stop waits for the readings queued during a database outage before it drops them:
 * a quarter of the shutdown budget (SHUTDOWN_TIMEOUT_MS), 10 s at most. A fixed 10 s took the
 * whole default budget, so every stop during an outage ran out of it and exited 1.
 */
export function readingsFlushLimitMs(shutdownTimeoutMs: number): number {
  return Math.min(10_000, Math.floor(shutdownTimeoutMs / 4));
}

/**
 * Writes the readings no table transition stores to `scanner_readings` (heartbeats, status
 * frames, readings of a table that is not running or whose transition failed; the others are
 * written by the transition that applies them), in arrival order, batching whatever queued up while
 * the previous insert ran (a burst of garbage becomes a few multi-row inserts, not thousands of
 * round trips). A failed insert is retried until the database is back; the queue is bounded so a
 * dead database cannot exhaust memory, and anything dropped is counted and logged. The scanners
 * record heartbeats and status frames here; the tables the readings they do not apply (their
 * ReadingStore port).
 */
export class ScannerReadingRecorder {
  private readonly logger = new Logger('ScannerReadingRecorder');
  private queue: Array<{ record: ReadingRecord; stored: (id: string | null) => void }> = [];
  private writing?: Promise<void>;
  private dropped = 0;
  private written = 0;
  /** A flush ran out of time: the next failed insert drops what is queued. */
  private givingUp = false;

  constructor(
    private readonly store: ReadingStore,
    private readonly options: { batchSize: number; maxQueued: number; retryDelayMs: number } = {
      batchSize: 500,
      maxQueued: 100_000,
      retryDelayMs: 1000,
    },
  ) {}

  get stats(): { written: number; queued: number; dropped: number } {
    return { written: this.written, queued: this.queue.length, dropped: this.dropped };
  }

  /**
   * Queues a reading for storage. Resolves with its row id (bigint as a string) once it is in the
   * database, or null if it could not be stored; readings are stored in the order recorded.
   */
  record(record: ReadingRecord): Promise<string | null> {
    if (this.queue.length >= this.options.maxQueued) {
      this.queue.shift()?.stored(null);
      this.dropped += 1;
      if (this.dropped === 1 || this.dropped % 1000 === 0) {
        this.logger.error(
          `Reading queue full (${this.options.maxQueued}): ${this.dropped} readings dropped`,
        );
      }
    }
    const stored = new Promise<string | null>((resolve) =>
      this.queue.push({ record, stored: resolve }),
    );
    this.writing ??= this.drain().finally(() => (this.writing = undefined));
    return stored;
  }

  /**
   * Resolves when everything recorded so far is in the database, or after `limitMs` of a database
   * that does not take it: then what is still queued is dropped (counted and logged), so a stop
   * during an outage ends.
   */
  async flush(limitMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, limitMs, 'late')));
    try {
      // A drain that ends may be followed by another (readings recorded meanwhile): wait for each.
      while (this.writing) {
        if ((await Promise.race([this.writing, late])) === 'late') break;
      }
    } finally {
      clearTimeout(timer);
    }
    if (!this.writing) return;
    this.givingUp = true;
    await this.writing;
    this.givingUp = false;
  }

  /**
   * One multi-row INSERT with plain parameters: the ORM's query builder is far slower on large
   * bytea values (a megabyte of garbage took seconds), and this path must keep up with a reader.
   */
  private async drain(): Promise<void> {
    let failures = 0;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.options.batchSize);
      try {
        const ids = await this.store.insertReadings(batch.map((entry) => entry.record));
        this.queue.splice(0, batch.length);
        this.written += batch.length;
        batch.forEach((entry, i) => entry.stored(ids[i] ?? null));
        failures = 0;
      } catch (error) {
        failures += 1;
        // Retried for as long as the database is out (the bounded queue keeps memory in check):
        // a reading given up after a few seconds of outage would be a hole in a table's history.
        if (failures === 1 || failures % 30 === 0) {
          this.logger.error(
            `Cannot store ${batch.length} scanner readings (attempt ${failures}, ${this.queue.length} queued): ${oneLine(error)}`,
          );
        }
        if (!this.store.open || this.givingUp) {
          this.logger.error(`${this.queue.length} scanner readings dropped: the database is out`);
          this.dropped += this.queue.length;
          for (const entry of this.queue.splice(0)) entry.stored(null);
          return;
        }
        await new Promise((r) => setTimeout(r, this.options.retryDelayMs));
      }
    }
  }
}
