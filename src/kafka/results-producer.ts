import type { CommandResultMessage } from '@studio/contracts';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import type { KafkaConfig } from '../config/studio-config';
import { kafkaConnection } from './kafka-connection';
import { kafkaLogCreator, warningSink } from './kafka-log';

export interface OutgoingMessage {
  key: string | null;
  value: string | Buffer | null;
  headers: Record<string, string>;
}

/**
 * The idempotent producer (acks from all in-sync replicas) of command answers and dead letters. A
 * failed send throws and drops the producer, so the next send starts with a fresh connection. Used
 * on the service's thread and in the answers worker (answers-worker.ts) alike.
 */
export class ResultsProducer {
  private readonly kafka: Kafka;
  private producer?: Promise<Producer>;

  constructor(config: KafkaConfig, warn: (message: string) => void) {
    this.kafka = new Kafka({
      clientId: `${config.clientId}-command-answers`,
      ...kafkaConnection(config),
      logLevel: logLevel.ERROR,
      // Through the service's logger: a broker restart is retried, and reported once per error.
      logCreator: kafkaLogCreator(warningSink(warn), { errors: 'warnings' }),
      retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3_000 },
    });
  }

  get client(): Kafka {
    return this.kafka;
  }

  /** Answers in the order given (one producer request per 1,000 answers). */
  async sendResults(topic: string, results: readonly CommandResultMessage[]): Promise<void> {
    for (let i = 0; i < results.length; i += 1_000) {
      await this.send(
        topic,
        results.slice(i, i + 1_000).map((result) => ({
          key: result.tableId,
          value: JSON.stringify(result),
          headers: { 'command-id': result.commandId, 'command-status': result.status },
        })),
      );
    }
  }

  async send(topic: string, messages: OutgoingMessage[]): Promise<void> {
    try {
      const producer = await this.connect();
      await producer.send({ topic, acks: -1, messages });
    } catch (error) {
      // Start afresh next time: a producer that failed mid-send may hold a stale connection.
      const stale = this.producer;
      this.producer = undefined;
      await (await stale?.catch(() => undefined))?.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** Connects now (at start-up) rather than on the first answer. */
  async warmUp(): Promise<void> {
    await this.connect();
  }

  async disconnect(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await (await producer?.catch(() => undefined))?.disconnect();
  }

  private connect(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
      });
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => {
        this.producer = undefined;
      });
    }
    return this.producer;
  }
}
