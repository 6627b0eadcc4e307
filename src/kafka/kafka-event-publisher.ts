import { Logger } from '@nestjs/common';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import type { KafkaConfig } from '../config/studio-config';
import { oneLine } from '../common/one-line';
import { kafkaConnection } from './kafka-connection';
import { KafkaLogSink, kafkaLogCreator } from './kafka-log';
import { ensureKafkaTopics } from './kafka-topics';
import { EventPublisher, OutgoingMessage, PublisherStatus } from '../outbox/event-publisher';

/**
 * Idempotent (acks from all in-sync replicas, one request in flight so a retry can never reorder
 * a table's events); Java-client-compatible murmur2 partitioner, so platforms in any language find
 * a table's partition.
 */
export const EVENT_PRODUCER_SETTINGS = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 },
} as const;

/**
 * Publishes outbox rows with an idempotent kafkajs producer. Publishes are queued and sent one
 * after the other, in the order asked, each as soon as the one before is acknowledged (no round
 * trip through the caller in between). Once a send fails, the producer is dropped and every send
 * after it is refused untried until the next connect(): none may reach the broker after one that
 * did not.
 */
export class KafkaEventPublisher extends EventPublisher {
  readonly enabled = true;
  private readonly kafka: Kafka;
  private producer?: Producer;
  private connected = false;
  private lastError?: string;
  /** Why sends are refused, since a send failed and until connect(). */
  private failed?: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly ensuredTopics = new Set<string>();

  /** `logger`: the service's logger, or a worker's link to it (events-worker.ts). */
  constructor(
    private readonly config: KafkaConfig,
    private readonly logger: KafkaLogSink = new Logger('KafkaEventPublisher'),
  ) {
    super();
    this.kafka = new Kafka({
      clientId: config.clientId,
      // Brokers, TLS and SASL/SCRAM: the same link settings as every other Kafka client.
      ...kafkaConnection(config),
      requestTimeout: 30_000,
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 },
      logLevel: logLevel.WARN,
      // Retries are bounded on purpose: a send that fails is retried by the relay from the outbox
      // (same event ids), so the producer's warning about that is expected; the relay logs the
      // failures that matter.
      logCreator: kafkaLogCreator(this.logger, {
        errors: 'warnings',
        expected: /Limiting retries for the idempotent producer/,
      }),
    });
  }

  async connect(topics: string[]): Promise<void> {
    await this.inOrder(async () => {
      this.failed = undefined;
      try {
        await this.ensureTopics(topics);
        await this.producerConnected();
        this.connected = true;
        this.lastError = undefined;
      } catch (error) {
        this.connected = false;
        this.lastError = oneLine(error);
        throw error;
      }
    });
  }

  /** Queued right away (no await before), so publishes go out in the order they are called. */
  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    await this.inOrder(async () => {
      if (this.failed) throw new Error(`Not sent: an earlier send failed (${this.failed})`);
      try {
        const producer = await this.producerConnected();
        await producer.send({ topic, acks: -1, messages });
        this.connected = true;
        this.lastError = undefined;
      } catch (error) {
        this.connected = false;
        this.lastError = oneLine(error);
        this.failed = this.lastError;
        // A producer that failed mid-send may hold a stale connection; start afresh next time.
        const producer = this.producer;
        this.producer = undefined;
        await producer?.disconnect().catch(() => undefined);
        throw error;
      }
    });
  }

  async prepareTopics(topics: string[]): Promise<void> {
    await this.inOrder(() => this.ensureTopics(topics));
  }

  status(): PublisherStatus {
    return { enabled: true, connected: this.connected, lastError: this.lastError };
  }

  async disconnect(): Promise<void> {
    await this.inOrder(async () => {
      const producer = this.producer;
      this.producer = undefined;
      this.connected = false;
      await producer?.disconnect();
    });
  }

  private inOrder<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async producerConnected(): Promise<Producer> {
    if (this.producer) return this.producer;
    const producer = this.kafka.producer({
      ...EVENT_PRODUCER_SETTINGS,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    producer.on(producer.events.DISCONNECT, () => {
      this.connected = false;
    });
    await producer.connect();
    this.producer = producer;
    return producer;
  }

  private async ensureTopics(topics: string[]): Promise<void> {
    const missing = topics.filter((t) => !this.ensuredTopics.has(t));
    if (missing.length === 0) return;
    const created = await ensureKafkaTopics(
      this.kafka,
      missing.map((topic) => ({ topic, numPartitions: this.config.eventPartitions })),
    );
    if (created.length > 0) this.logger.log(`Created Kafka topics ${created.join(', ')}`);
    missing.forEach((t) => this.ensuredTopics.add(t));
  }
}
