import { Logger } from '@nestjs/common';
import { Kafka, logLevel, LogEntry, Partitioners, Producer } from 'kafkajs';
import type { KafkaConfig } from '../config/studio-config';
import { oneLine } from '../common/one-line';
import { kafkaConnection } from './kafka-connection';
import { ensureKafkaTopics } from './kafka-topics';
import { EventPublisher, OutgoingMessage, PublisherStatus } from '../outbox/event-publisher';

/**
 * Publishes outbox rows with an idempotent kafkajs producer (acks from all in-sync replicas, one
 * request in flight so a retry can never reorder a table's events).
 */
export class KafkaEventPublisher extends EventPublisher {
  readonly enabled = true;
  private readonly logger = new Logger('KafkaEventPublisher');
  private readonly kafka: Kafka;
  private producer?: Producer;
  private connected = false;
  private lastError?: string;
  private readonly ensuredTopics = new Set<string>();

  constructor(private readonly config: KafkaConfig) {
    super();
    const logger = this.logger;
    this.kafka = new Kafka({
      clientId: config.clientId,
      // Brokers, TLS and SASL/SCRAM: the same link settings as every other Kafka client.
      ...kafkaConnection(config),
      requestTimeout: 30_000,
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 },
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ namespace, log }: LogEntry) => {
          const { message, ...extra } = log;
          // Retries are bounded on purpose: a send that fails is retried by the relay from the
          // outbox (same event ids), so the producer's end-to-end warning about it is expected.
          if (String(message).includes('Limiting retries for the idempotent producer')) return;
          const line = `kafkajs ${namespace}: ${message} ${JSON.stringify(extra)}`;
          // kafkajs reports errors it retries itself; the relay logs the failures that matter.
          logger.warn(line);
        },
    });
  }

  async connect(topics: string[]): Promise<void> {
    try {
      await this.ensureTopics(topics);
      if (!this.producer) {
        const producer = this.kafka.producer({
          idempotent: true,
          maxInFlightRequests: 1,
          // Java-client-compatible murmur2: platforms in any language find a table's partition.
          createPartitioner: Partitioners.DefaultPartitioner,
          allowAutoTopicCreation: false,
          retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 },
        });
        producer.on(producer.events.DISCONNECT, () => {
          this.connected = false;
        });
        await producer.connect();
        this.producer = producer;
      }
      this.connected = true;
      this.lastError = undefined;
    } catch (error) {
      this.connected = false;
      this.lastError = oneLine(error);
      throw error;
    }
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (!this.producer || !this.connected) {
      await this.connect([topic]);
    }
    try {
      await this.producer!.send({ topic, acks: -1, messages });
      this.connected = true;
      this.lastError = undefined;
    } catch (error) {
      this.connected = false;
      this.lastError = oneLine(error);
      // A producer that failed mid-send may hold a stale connection; start afresh next time.
      const producer = this.producer;
      this.producer = undefined;
      await producer?.disconnect().catch(() => undefined);
      throw error;
    }
  }

  status(): PublisherStatus {
    return { enabled: true, connected: this.connected, lastError: this.lastError };
  }

  async disconnect(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.connected = false;
    await producer?.disconnect();
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
