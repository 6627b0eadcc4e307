import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import type { OutboxConfig } from '../config/studio-config';
import { backoffMs } from '../common/backoff';
import { oneLine } from '../common/one-line';
import { EventPublisher } from './event-publisher';
import type { OutgoingMessage } from './event-publisher';
import { OutboxRow, splitBySize } from './outbox-envelope';
import { EventRouting, routeRows } from './outbox-relay-routing';
import { OutboxRelayStore, PgOutboxRelayStore, RelayLease } from './outbox-relay-store';

/** Counters since start, exposed on GET /metrics. */
export interface RelayCounters {
  publishedEvents: number;
  publishedBatches: number;
  failedBatches: number;
  /** Wall time spent relaying batches that were published (read, send, mark), milliseconds. */
  publishMillis: number;
}

export interface OutboxLag {
  pending: number;
  oldestPendingAt: string | null;
  oldestPendingAgeMs: number | null;
}

/**
 * With a pool of a few connections (the embedded database has one), the leader gives its lease
 * (and its pooled connection) back at least this often, so that the pool still serves the rest of
 * the service during a long drain.
 */
const SMALL_POOL_LEASE_SLICE_MS = 1_000;
/**
 * Otherwise a turn lasts up to this: each new turn costs the lock's round trips and a first read
 * that no send overlaps (about a tenth of a 100k drain with one-second turns).
 */
const LEASE_SLICE_MS = 10_000;
const SMALL_POOL = 2;

/**
 * Publishes the outbox to the broker in id order (which is per-table sequence order, because a
 * table's events are appended under a lock on its row) and records, per table, the seq it is
 * published up to. A crash between "sent" and "marked" republishes the same event ids: consumers
 * de-duplicate by event id.
 *
 * Pipelined: batch k+1 is read while batch k is sent, and asked to be sent before batch k is
 * acknowledged (the publisher sends in order and tries nothing after a failed send, so a table's
 * events reach the broker in order); batch k is marked once acknowledged, while the next are sent.
 */
export class OutboxRelay {
  private readonly logger = new Logger('OutboxRelay');
  private readonly store: OutboxRelayStore;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  /** Set by stop(): a turn in progress finishes its batch in flight and reads no further. */
  private stopRequested = false;
  private wakeRequested = false;
  private failures = 0;
  private topicsReady = false;
  /** Topics the publisher has made sure of. */
  private readonly knownTopics = new Set<string>();
  private readonly leaseSliceMs: number;
  readonly counters: RelayCounters = {
    publishedEvents: 0,
    publishedBatches: 0,
    failedBatches: 0,
    publishMillis: 0,
  };

  constructor(
    dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly config: OutboxConfig,
    private readonly clock: Clock,
    private readonly topics: string[],
    store?: OutboxRelayStore,
    /** Per-platform routing of table events (contract 2.0); absent: every row to its topic. */
    private readonly routing?: EventRouting,
  ) {
    this.store = store ?? new PgOutboxRelayStore(dataSource);
    const poolSize = (dataSource.options as { extra?: { max?: number } } | undefined)?.extra?.max;
    this.leaseSliceMs =
      poolSize !== undefined && poolSize <= SMALL_POOL ? SMALL_POOL_LEASE_SLICE_MS : LEASE_SLICE_MS;
  }

  start(): void {
    if (!this.publisher.enabled) {
      this.logger.log('Kafka publishing is off (KAFKA_BROKERS not set): events wait in the outbox');
      return;
    }
    this.stopped = false;
    this.stopRequested = false;
    this.schedule(0);
  }

  /** Called after a commit that added outbox rows, so they go out without waiting for the poll. */
  notify(): void {
    // While backing off after a failed publish, a commit does not cut the wait short: during a
    // broker outage every table's commits would otherwise each start a reconnect attempt.
    if (this.stopped || this.failures > 0) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops relaying; the batch being sent is still sent and marked before this resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async lag(): Promise<OutboxLag> {
    const { pending, oldest } = await this.store.backlog();
    return {
      pending,
      oldestPendingAt: oldest ? oldest.toISOString() : null,
      oldestPendingAgeMs: oldest
        ? Math.max(0, this.clock.now().getTime() - oldest.getTime())
        : null,
    };
  }

  /**
   * One turn as leader: publishes until the backlog is empty, the lease's slice is used up or the
   * relay stops. Returns whether more may be waiting (a full batch was the last one read).
   */
  async relayOnce(): Promise<{ published: number; more: boolean }> {
    if (!this.topicsReady) {
      await this.publisher.connect(this.topics);
      this.topics.forEach((t) => this.knownTopics.add(t));
      this.topicsReady = true;
    }
    const lease = await this.store.tryLead();
    if (!lease) return { published: 0, more: false };
    const started = performance.now();
    const turn = new LeaseTurn(
      lease,
      this.config.batchSize,
      this.clock,
      (events) => {
        this.counters.publishedEvents += events;
        this.counters.publishedBatches += 1;
      },
      this.routing,
    );
    try {
      const more = await turn.run(
        (batch) => this.send(batch),
        () => this.stopRequested || performance.now() - started > this.leaseSliceMs,
      );
      if (turn.published > 0) this.counters.publishMillis += performance.now() - started;
      return { published: turn.published, more };
    } catch (error) {
      this.counters.failedBatches += 1;
      // The next turn connects again, which also lets the publisher send after its failure.
      this.topicsReady = false;
      throw error;
    }
  }

  /**
   * Asks for every send of the batch at once: the publisher keeps them in order and tries none
   * after one that failed, so a table's events reach the broker in order.
   */
  private async send(batch: Batch): Promise<void> {
    // A platform's events topic first seen (made by its set-up, or here): made before its sends,
    // in the publisher's order.
    const fresh = [...new Set(batch.sends.map((s) => s.topic))].filter(
      (t) => !this.knownTopics.has(t),
    );
    fresh.forEach((t) => this.knownTopics.add(t));
    const preparing = fresh.length > 0 ? this.publisher.prepareTopics(fresh) : undefined;
    preparing?.catch(() => fresh.forEach((t) => this.knownTopics.delete(t)));
    await Promise.all([
      preparing,
      ...batch.sends.map((s) => this.publisher.publish(s.topic, s.messages)),
    ]);
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
    try {
      let more: boolean;
      do {
        this.wakeRequested = false;
        ({ more } = await this.relayOnce());
      } while (!this.stopped && (more || this.wakeRequested));
      if (this.failures > 0) this.logger.log('Kafka publishing recovered');
      this.failures = 0;
      this.schedule(this.config.pollIntervalMs);
    } catch (error) {
      this.failures += 1;
      const backoff = backoffMs(
        this.config.pollIntervalMs,
        this.config.maxBackoffMs,
        this.failures,
      );
      this.logger.warn(
        `Publishing the outbox failed (attempt ${this.failures}, next try in ${backoff} ms): ${oneLine(error)}`,
      );
      this.schedule(backoff);
    }
  }
}

/**
 * Rows read, with their messages built while the batch before was being sent, as the sends that
 * carry them: per topic, in the rows' order, each under the broker's size limit.
 */
export interface Batch {
  rows: OutboxRow[];
  sends: Array<{ topic: string; messages: OutgoingMessage[] }>;
}

export function toBatch(rows: OutboxRow[], routing?: EventRouting): Batch {
  const sends: Batch['sends'] = [];
  for (const [topic, messages] of routeRows(rows, routing)) {
    for (const part of splitBySize(messages)) sends.push({ topic, messages: part });
  }
  return { rows, sends };
}

/** Batches asked to be sent and not yet acknowledged, at most. */
const BATCHES_IN_FLIGHT = 2;

/**
 * The pipeline of one lease: reads ahead one batch, keeps up to BATCHES_IN_FLIGHT batches with
 * the publisher, marks each once acknowledged, in order. Reads start after the tables' seqs already
 * read, so nothing is sent twice by one leader; after a failure the unmarked rows are read again
 * by the next turn (same event ids).
 */
export class LeaseTurn {
  published = 0;
  /** Per table, the last seq read by this lease (sent or about to be). */
  private readonly readUpTo = new Map<string, number>();
  private readonly marks = new Set<Promise<void>>();
  private markError: unknown;

  constructor(
    private readonly lease: RelayLease,
    private readonly batchSize: number,
    private readonly clock: Clock,
    private readonly onMarked: (events: number) => void,
    private readonly routing?: EventRouting,
  ) {}

  /** Returns whether more rows may be waiting when it stopped reading ahead. */
  async run(send: (batch: Batch) => Promise<void>, shouldYield: () => boolean): Promise<boolean> {
    let next: Promise<Batch> | undefined = this.read();
    const inFlight: InFlight[] = [];
    try {
      let more = false;
      while (next) {
        const batch = await next;
        next = undefined;
        if (batch.rows.length === 0) break;
        const upTo = lastSeqs(batch.rows);
        upTo.forEach((seq, tableId) => this.readUpTo.set(tableId, seq));
        more = batch.rows.length === this.batchSize;
        if (more && !shouldYield()) next = this.read();
        this.throwIfMarkFailed();
        const sent = send(batch);
        sent.catch(() => undefined); // awaited (and its failure thrown) by settle()
        inFlight.push({ sent, rows: batch.rows, upTo });
        while (inFlight.length >= BATCHES_IN_FLIGHT) await this.settle(inFlight.shift()!);
      }
      while (inFlight.length > 0) await this.settle(inFlight.shift()!);
      await Promise.all(this.marks);
      this.throwIfMarkFailed();
      return more;
    } finally {
      // The lease's connection is released only once nothing is using it any more; batches asked
      // for after a failed one are refused by the publisher, and stay unmarked.
      await Promise.all(inFlight.map((f) => f.sent.catch(() => undefined)));
      await next?.catch(() => undefined);
      await Promise.all(this.marks);
      await this.lease.end();
    }
  }

  /** Waits for a batch's acknowledgement and marks it; a failed batch is recorded on its rows. */
  private async settle({ sent, rows, upTo }: InFlight): Promise<void> {
    try {
      await sent;
    } catch (error) {
      await this.recordFailure(rows, error);
      throw error;
    }
    // After a lost mark the lease's connection is suspect: nothing more is marked this turn.
    this.throwIfMarkFailed();
    this.mark(upTo, rows.length);
  }

  private read(): Promise<Batch> {
    const reading = this.lease
      .read(this.batchSize, new Map(this.readUpTo))
      .then((rows) => toBatch(rows, this.routing));
    reading.catch(() => undefined); // awaited (and its failure thrown) by run()
    return reading;
  }

  /** Marks run in order on the lease's connection, so a table's progress only moves forward. */
  private mark(upTo: Map<string, number>, events: number): void {
    const marking = this.lease.markPublished(upTo, this.clock.now()).then(
      () => {
        this.published += events;
        this.onMarked(events);
      },
      (error: unknown) => {
        this.markError ??= error;
      },
    );
    this.marks.add(marking);
    void marking.finally(() => this.marks.delete(marking));
  }

  private throwIfMarkFailed(): void {
    if (this.markError !== undefined) throw this.markError;
  }

  private async recordFailure(rows: readonly OutboxRow[], error: unknown): Promise<void> {
    if (rows.length === 0) return;
    await this.lease
      .recordFailure(
        rows.map((row) => row.id),
        oneLine(error).slice(0, 2000),
      )
      .catch(() => undefined);
  }
}

interface InFlight {
  sent: Promise<void>;
  rows: OutboxRow[];
  upTo: Map<string, number>;
}

/** Per table, the highest seq among the rows (a batch holds each table's rows in seq order). */
export function lastSeqs(rows: readonly OutboxRow[]): Map<string, number> {
  const upTo = new Map<string, number>();
  for (const row of rows) {
    const seq = Number(row.seq);
    if (seq > (upTo.get(row.tableId) ?? 0)) upTo.set(row.tableId, seq);
  }
  return upTo;
}
