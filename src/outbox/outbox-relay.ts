import { Logger } from '@nestjs/common';
import { EVENT_HEADERS } from '@studio/contracts';
import { OutboxEventEntity, toEnvelope } from '@studio/persistence';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import type { OutboxConfig } from '../config/studio-config';
import { oneLine } from '../common/one-line';
import { EventPublisher, OutgoingMessage } from './event-publisher';

/** Only one relay (across all instances on one database) publishes at a time, keeping table order. */
const RELAY_LOCK_KEY = 0x5354_4f42; // "STOB"

/** Counters since start, exposed on GET /metrics. */
export interface RelayCounters {
  publishedEvents: number;
  publishedBatches: number;
  failedBatches: number;
  /** Wall time spent in successful publishBatch calls (read, send, mark), milliseconds. */
  publishMillis: number;
}

export interface OutboxLag {
  pending: number;
  oldestPendingAt: string | null;
  oldestPendingAgeMs: number | null;
}

/**
 * Publishes the outbox to the broker in id order (which is per-table sequence order, because a
 * table's events are appended under a lock on its row) and marks rows published. A crash between
 * "sent" and "marked" republishes the same event ids: consumers de-duplicate by event id.
 */
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private wakeRequested = false;
  private failures = 0;
  private topicsReady = false;
  readonly counters: RelayCounters = {
    publishedEvents: 0,
    publishedBatches: 0,
    failedBatches: 0,
    publishMillis: 0,
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly config: OutboxConfig,
    private readonly clock: Clock,
    private readonly topics: string[],
  ) {}

  start(): void {
    if (!this.publisher.enabled) {
      this.logger.log('Kafka publishing is off (KAFKA_BROKERS not set): events wait in the outbox');
      return;
    }
    this.stopped = false;
    this.schedule(0);
  }

  /** Called after a commit that added outbox rows, so they go out without waiting for the poll. */
  notify(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Publishes at most one batch. Returns how many events were published. */
  async publishBatch(): Promise<number> {
    const started = performance.now();
    try {
      const published = await this.publishOneBatch();
      if (published > 0) {
        this.counters.publishedEvents += published;
        this.counters.publishedBatches += 1;
        this.counters.publishMillis += performance.now() - started;
      }
      return published;
    } catch (error) {
      this.counters.failedBatches += 1;
      throw error;
    }
  }

  private async publishOneBatch(): Promise<number> {
    if (!this.topicsReady) {
      await this.publisher.connect(this.topics);
      this.topicsReady = true;
    }
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    let rows: OutboxEventEntity[] = [];
    try {
      await runner.startTransaction();
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        RELAY_LOCK_KEY,
      ]);
      if (!locked) {
        await runner.commitTransaction();
        return 0;
      }
      rows = await runner.manager
        .getRepository(OutboxEventEntity)
        .createQueryBuilder('o')
        .where('o.published_at IS NULL')
        .orderBy('o.id', 'ASC')
        .limit(this.config.batchSize)
        .getMany();
      if (rows.length === 0) {
        await runner.commitTransaction();
        return 0;
      }
      const byTopic = new Map<string, OutgoingMessage[]>();
      for (const row of rows) {
        const list = byTopic.get(row.topic) ?? [];
        list.push(toMessage(row));
        byTopic.set(row.topic, list);
      }
      for (const [topic, messages] of byTopic) {
        await this.publisher.publish(topic, messages);
      }
      await runner.query(
        `UPDATE outbox SET published_at = $2, publish_attempts = publish_attempts + 1, last_error = NULL
         WHERE id = ANY($1::bigint[])`,
        [rows.map((r) => r.id), this.clock.now()],
      );
      await runner.commitTransaction();
      return rows.length;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      // Release the connection before recording the failure: with a one-connection pool
      // (embedded database) a second query would wait for this one forever.
      await runner.release();
      if (rows.length > 0) {
        await this.dataSource
          .query(
            `UPDATE outbox SET publish_attempts = publish_attempts + 1, last_error = $2
             WHERE id = ANY($1::bigint[]) AND published_at IS NULL`,
            [rows.map((r) => r.id), oneLine(error).slice(0, 2000)],
          )
          .catch(() => undefined);
      }
      throw error;
    } finally {
      if (!runner.isReleased) await runner.release();
    }
  }

  async lag(): Promise<OutboxLag> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS pending, min(occurred_at) AS oldest FROM outbox WHERE published_at IS NULL`,
    );
    const oldest: Date | null = row.oldest ? new Date(row.oldest) : null;
    return {
      pending: row.pending,
      oldestPendingAt: oldest ? oldest.toISOString() : null,
      oldestPendingAgeMs: oldest
        ? Math.max(0, this.clock.now().getTime() - oldest.getTime())
        : null,
    };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.loop().finally(() => {
        this.running = undefined;
      });
    }, delayMs);
  }

  private async loop(): Promise<void> {
    let published = 0;
    try {
      do {
        this.wakeRequested = false;
        published = await this.publishBatch();
        if (published > 0) this.logger.debug(`Published ${published} events`);
      } while (!this.stopped && (published === this.config.batchSize || this.wakeRequested));
      if (this.failures > 0) this.logger.log('Kafka publishing recovered');
      this.failures = 0;
      this.schedule(this.config.pollIntervalMs);
    } catch (error) {
      this.failures += 1;
      this.topicsReady = false;
      const backoff = Math.min(
        this.config.maxBackoffMs,
        this.config.pollIntervalMs * 2 ** Math.min(this.failures, 16),
      );
      this.logger.warn(
        `Publishing the outbox failed (attempt ${this.failures}, next try in ${backoff} ms): ${oneLine(error)}`,
      );
      this.schedule(backoff);
    }
  }
}

function toMessage(row: OutboxEventEntity): OutgoingMessage {
  return {
    key: row.tableId,
    value: JSON.stringify(toEnvelope(row)),
    headers: {
      [EVENT_HEADERS.eventId]: row.eventId,
      [EVENT_HEADERS.type]: row.type,
      [EVENT_HEADERS.schemaVersion]: String(row.schemaVersion),
    },
  };
}
