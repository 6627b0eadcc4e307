import { type CommandResultMessage, RESULT_HEADERS } from '@studio/contracts';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import type { KafkaConfig } from '../config/studio-config';
import { kafkaConnection } from './kafka-connection';
import { kafkaLogCreator, warningSink } from './kafka-log';

export interface OutgoingMessage {
  key: string | null;
  value: string | Buffer | null;
  headers: Record<string, string>;
}

/** Answers for one topic, in their order. */
export interface RoutedResults {
  topic: string;
  results: readonly CommandResultMessage[];
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

  /**
   * Answers in the order given, each to its topic (a platform's results topic): one producer
   * request per 1,000 answers whatever the number of platforms among them, so answering twenty
   * platforms costs the round trips answering one did.
   */
  async sendResults(routed: readonly RoutedResults[]): Promise<void> {
    const all = routed.flatMap(({ topic, results }) =>
      results.map((result) => ({ topic, result })),
    );
    for (let i = 0; i < all.length; i += 1_000) {
      const byTopic = new Map<string, OutgoingMessage[]>();
      for (const { topic, result } of all.slice(i, i + 1_000)) {
        let messages = byTopic.get(topic);
        if (!messages) byTopic.set(topic, (messages = []));
        messages.push({
          key: result.tableId,
          value: JSON.stringify(result),
          headers: {
            [RESULT_HEADERS.commandId]: result.commandId,
            [RESULT_HEADERS.status]: result.status,
          },
        });
      }
      await this.sendBatch([...byTopic].map(([topic, messages]) => ({ topic, messages })));
    }
  }

  async send(topic: string, messages: OutgoingMessage[]): Promise<void> {
    await this.sendBatch([{ topic, messages }]);
  }

  private async sendBatch(
    topicMessages: Array<{ topic: string; messages: OutgoingMessage[] }>,
  ): Promise<void> {
    try {
      const producer = await this.connect();
      await producer.sendBatch({ acks: -1, topicMessages });
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
