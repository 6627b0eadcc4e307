import { Logger } from '@nestjs/common';
import { ScannerReadingEntity } from '@studio/persistence';
import type { ReadingDisposition, ScannerReading } from '@studio/scanner-protocol';
import { DataSource } from 'typeorm';
import { oneLine } from '../common/one-line';

export interface ReadingRecord {
  tableId: string;
  port: string;
  wireFormat: string;
  reading: ScannerReading;
  outcome: ReadingDisposition;
  outcomeDetail?: Record<string, unknown> | null;
}

/** The reading as stored in `decoded`: everything but the bytes and the time, which have columns. */
export function decodedOf(reading: ScannerReading): Record<string, unknown> {
  const { raw: _raw, receivedAt: _at, ...decoded } = reading;
  return decoded as Record<string, unknown>;
}

const COLUMNS = [
  'table_id',
  'port',
  'wire_format',
  'kind',
  'raw',
  'decoded',
  'device_seq',
  'received_at',
  'outcome',
  'outcome_detail',
];

export function toEntity(record: ReadingRecord): Partial<ScannerReadingEntity> {
  return {
    tableId: record.tableId,
    port: record.port,
    wireFormat: record.wireFormat,
    kind: record.reading.kind,
    raw: Buffer.from(record.reading.raw),
    decoded: decodedOf(record.reading),
    deviceSeq: record.reading.sequence ?? null,
    receivedAt: new Date(record.reading.receivedAt),
    outcome: record.outcome,
    outcomeDetail: record.outcomeDetail ?? null,
  };
}

/**
 * Writes every reading to `scanner_readings`, in arrival order, batching whatever queued up while
 * the previous insert ran (a burst of garbage becomes a few multi-row inserts, not thousands of
 * round trips). A failed insert is retried; the queue is bounded so a dead database cannot exhaust
 * memory, and anything dropped is counted and logged.
 */
export class ScannerReadingRecorder {
  private readonly logger = new Logger('ScannerReadingRecorder');
  private queue: Array<{ record: ReadingRecord; stored: (id: string | null) => void }> = [];
  private writing?: Promise<void>;
  private dropped = 0;
  private written = 0;

  constructor(
    private readonly dataSource: DataSource,
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

  /** Resolves when everything recorded so far is in the database (or the retries gave up). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /**
   * One multi-row INSERT with plain parameters: the ORM's query builder is far slower on large
   * bytea values (a megabyte of garbage took seconds), and this path must keep up with a reader.
   */
  private async insert(batch: ReadingRecord[]): Promise<string[]> {
    const params: unknown[] = [];
    const tuples = batch.map((record) => {
      const e = toEntity(record);
      const values = [
        e.tableId,
        e.port,
        e.wireFormat,
        e.kind,
        e.raw,
        JSON.stringify(e.decoded),
        e.deviceSeq,
        e.receivedAt,
        e.outcome,
        e.outcomeDetail === null ? null : JSON.stringify(e.outcomeDetail),
      ];
      const placeholders = values.map((v) => {
        params.push(v);
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    // PostgreSQL returns the rows of a multi-row VALUES insert in the order given.
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO scanner_readings (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} RETURNING id`,
      params,
    );
    return rows.map((r) => String(r.id));
  }

  private async drain(): Promise<void> {
    let failures = 0;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.options.batchSize);
      try {
        const ids = await this.insert(batch.map((entry) => entry.record));
        this.queue.splice(0, batch.length);
        this.written += batch.length;
        batch.forEach((entry, i) => entry.stored(ids[i] ?? null));
        failures = 0;
      } catch (error) {
        failures += 1;
        this.logger.error(
          `Cannot store ${batch.length} scanner readings (attempt ${failures}): ${oneLine(error)}`,
        );
        if (!this.dataSource.isInitialized || failures >= 10) {
          this.dropped += this.queue.length;
          for (const entry of this.queue.splice(0)) entry.stored(null);
          return;
        }
        await new Promise((r) => setTimeout(r, this.options.retryDelayMs));
      }
    }
  }
}
