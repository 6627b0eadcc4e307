import { KafkaOptions, ServerKafka } from '@nestjs/microservices';
import type { Consumer, ConsumerCrashEvent, EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import type { IntakeOutcome } from './command-intake';
import { CommandSubscription, CommandTopicWatcher } from './command-intake-topics';
import { KafkaCommandBacklog } from './kafka-command-backlog';

export interface CommandBatchHandler {
  /** Applies and commits a chunk; throws only on infrastructure failure (read again). */
  apply(messages: RawCommandMessage[]): Promise<IntakeOutcome[]>;
  /** Publishes a committed chunk's answers; throws only on infrastructure failure. */
  publish(messages: RawCommandMessage[], outcomes: IntakeOutcome[]): Promise<void>;
  /** The next chunk, read while this one is applied: work that can start early (no effects). */
  prefetch?(messages: RawCommandMessage[]): void;
  /** The group's partitions were (re)assigned. */
  rebalanced?(): void;
  /** The group is rebalancing: this member reads nothing until it has rejoined. */
  rebalancing?(): void;
}

/**
 * Told when kafkajs leaves the consumer stopped for good, with how to start it again (the
 * CommandIntakeStarter's retry loop, which readiness reads).
 */
export type ConsumerStopped = (error: unknown, startAgain: () => Promise<void>) => void;

/**
 * The @nestjs/microservices Kafka server (same consumer group, client and lifecycle), reading
 * the commands topic a batch at a time instead of a message at a time: 100,000 players deciding
 * in one window then cost a few hundred transactions, not 100,000.
 *
 * Pipelined: chunk k's answers are published while chunk k+1's transaction runs, and chunk k+2
 * is parsed and its stored answers looked up while chunk k+1 is applied. Chunks are
 * applied one after the other (a partition holds its tables' commands in order) and answered in
 * the same order; a chunk's offset is resolved and committed only after its answers are
 * published, so a crash re-reads (and re-answers from the stored answers, `duplicate: true`) at
 * most the two chunks in flight.
 */
export class BatchingKafkaServer extends ServerKafka {
  private watcher?: CommandTopicWatcher;
  private closing = false;
  private stoppedListener?: ConsumerStopped;
  /** The topics subscribed so far. */
  private readonly read = new Set<string>();
  /** The group's progress on those topics (read by the tables' windows after a join). */
  readonly backlog = new KafkaCommandBacklog(
    () => this.client,
    () => this.groupId,
    () => [...this.read],
  );

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly subscription: CommandSubscription | string,
    private readonly handler: CommandBatchHandler,
    private readonly chunkSize: number,
  ) {
    super(options);
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    consumer.on(consumer.events.REBALANCING, () => this.handler.rebalancing?.());
    consumer.on(consumer.events.GROUP_JOIN, () => this.handler.rebalanced?.());
    // kafkajs restarts a crashed consumer only after an error it deems retriable; after any other
    // (one it does not retry, or a bug met while a broker was away) it stays stopped for good, and
    // every command would wait unread while the service looks healthy.
    consumer.on(consumer.events.CRASH, (event: ConsumerCrashEvent) => {
      if (event.payload.restart || this.closing) return;
      this.stoppedListener?.(event.payload.error, async () => {
        if (this.closing) return;
        await consumer.connect();
        await this.runConsumer(consumer);
      });
    });
    const topics = await this.subscribedTopics(consumer);
    await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics });
    for (const topic of topics) this.read.add(topic);
    await this.runConsumer(consumer);
    this.watcher?.start();
  }

  /** Who starts the consumer again when kafkajs leaves it stopped (one listener). */
  onConsumerStopped(listener: ConsumerStopped): void {
    this.stoppedListener = listener;
  }

  override async close(): Promise<void> {
    this.closing = true;
    this.watcher?.stop();
    await this.backlog.close();
    await super.close();
  }

  private runConsumer(consumer: Consumer): Promise<void> {
    // Joining the group rebalances it: nothing is read until this member has its partitions, and
    // a table this instance drives meanwhile must not close a window on the commands waiting there.
    this.handler.rebalancing?.();
    return consumer.run({
      ...(this.options.run ?? {}),
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  /** The named topics and every platform's commands topic, watched for new ones (routing). */
  private async subscribedTopics(consumer: Consumer): Promise<string[]> {
    if (typeof this.subscription === 'string') return [this.subscription];
    this.watcher?.stop();
    this.watcher = new CommandTopicWatcher(
      this.subscription,
      () => this.listTopics(),
      async (_all, added) => {
        // kafkajs subscribes only while stopped: the batch in hand finishes (answered and
        // committed), the group rebalances with the new topic, the rest resume where committed.
        // A subscription that fails (the broker went away meanwhile) still runs the consumer on
        // the topics it had; the watcher tries the new ones again at its next look.
        await consumer.stop();
        try {
          await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics: added });
          for (const topic of added) this.read.add(topic);
        } finally {
          await this.runConsumer(consumer);
        }
      },
    );
    return this.watcher.initial();
  }

  private async listTopics(): Promise<string[]> {
    const admin = this.client!.admin();
    await admin.connect();
    try {
      return await admin.listTopics();
    } finally {
      await admin.disconnect();
    }
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const size = chunkSizeFor(batch.messages.length, this.chunkSize);
    let published: Promise<void> = Promise.resolve();
    const rawsAt = (i: number) =>
      batch.messages.slice(i, i + size).map((m) => rawCommand(batch.topic, batch.partition, m));
    let raws = rawsAt(0);
    try {
      for (let i = 0; i < batch.messages.length; i += size) {
        // A rebalance took the partition away, or the service is stopping: leave the rest unread.
        if (!payload.isRunning() || payload.isStale()) break;
        const chunk = batch.messages.slice(i, i + size);
        const applying = this.handler.apply(raws);
        // The next chunk is parsed (and its stored answers looked up) while this one commits: in
        // a macrotask, once this chunk's own work is under way.
        const next = i + size < batch.messages.length ? rawsAt(i + size) : [];
        if (next.length > 0) setImmediate(() => this.handler.prefetch?.(next));
        const outcomes = await applying;
        const applied = raws;
        raws = next;
        const previous = published;
        const last = chunk[chunk.length - 1].offset;
        published = previous
          .then(() => this.handler.publish(applied, outcomes))
          .then(() => payload.resolveOffset(last));
        // Handled here, thrown below: a failed publish must not be an unhandled rejection while
        // the next chunk is applied.
        published.catch(() => undefined);
        await previous;
        await payload.heartbeat();
        await payload.commitOffsetsIfNecessary();
      }
    } finally {
      // Whatever happened to the next chunk, the committed ones' answers go out first.
      await published.catch(() => undefined);
    }
    await published;
    await payload.heartbeat();
    await payload.commitOffsetsIfNecessary();
  }
}

/** Smallest chunk split off a batch: below it a transaction's fixed cost would dominate. */
const MIN_CHUNK = 1_000;

/**
 * Chunks of a fetched batch: up to the configured size, but at least four per batch when the batch
 * allows (a batch of 10,000 in four chunks of 2,500, not two of 5,000), so applying and answering
 * overlap for most of the batch instead of half of it.
 */
export function chunkSizeFor(messages: number, configured: number): number {
  return Math.max(1, Math.min(configured, Math.max(MIN_CHUNK, Math.ceil(messages / 4))));
}

function rawCommand(topic: string, partition: number, message: KafkaMessage): RawCommandMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key === null ? null : message.key.toString('utf8'),
    // Bytes as sent: a dead letter must carry exactly what arrived.
    value: message.value,
  };
}
