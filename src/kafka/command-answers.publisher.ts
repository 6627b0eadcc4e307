import { Logger } from '@nestjs/common';
import {
  CommandResultMessage,
  DEAD_LETTER_HEADERS,
  DeadLetterReasonCode,
  topicName,
} from '@studio/contracts';
import { Kafka, LogEntry, logLevel, Partitioners, Producer } from 'kafkajs';
import type { KafkaConfig } from '../config/studio-config';
import type { RawCommandMessage } from '../platform/raw-command-message';
import { kafkaConnection } from './kafka-connection';
import { ensureKafkaTopics } from './kafka-topics';

/**
 * Publishes answers to the results topic and unreadable commands to the dead-letter topic, with an
 * idempotent producer (acks from all in-sync replicas). A failed send throws, so the consumer does
 * not commit the command's offset and answers it again after the retry (the stored answer).
 */
export class CommandAnswersPublisher {
  private readonly logger = new Logger('CommandAnswers');
  private readonly kafka: Kafka;
  private producer?: Promise<Producer>;
  readonly resultsTopic: string;
  readonly deadLetterTopic: string;
  readonly commandsTopic: string;

  constructor(private readonly config: KafkaConfig) {
    this.kafka = new Kafka({
      clientId: `${config.clientId}-command-answers`,
      ...kafkaConnection(config),
      logLevel: logLevel.ERROR,
      // Through the service's logger: a broker restart is retried, and reported once per error.
      logCreator:
        () =>
        ({ namespace, log }: LogEntry) =>
          this.logger.warn(`kafkajs ${namespace}: ${String(log.message)}`),
      retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3_000 },
    });
    this.commandsTopic = topicName('platformCommands', config.topicPrefix);
    this.resultsTopic = topicName('commandResults', config.topicPrefix);
    this.deadLetterTopic = topicName('commandDeadLetters', config.topicPrefix);
  }

  /** Creates the command, results and dead-letter topics when missing (before the consumer joins). */
  async ensureTopics(): Promise<void> {
    const created = await ensureKafkaTopics(this.kafka, [
      { topic: this.commandsTopic, numPartitions: this.config.commands.partitions },
      { topic: this.resultsTopic, numPartitions: this.config.commands.partitions },
      { topic: this.deadLetterTopic, numPartitions: 1 },
    ]);
    if (created.length > 0) this.logger.log(`Created Kafka topics ${created.join(', ')}`);
  }

  async publishResult(result: CommandResultMessage): Promise<void> {
    await this.publishResults([result]);
  }

  /** Answers in the order given (one producer request per 1,000 answers). */
  async publishResults(results: readonly CommandResultMessage[]): Promise<void> {
    for (let i = 0; i < results.length; i += 1_000) {
      await this.send(
        this.resultsTopic,
        results.slice(i, i + 1_000).map((result) => ({
          key: result.tableId,
          value: JSON.stringify(result),
          headers: { 'command-id': result.commandId, 'command-status': result.status },
        })),
      );
    }
  }

  async publishDeadLetter(
    raw: RawCommandMessage,
    code: DeadLetterReasonCode,
    reason: string,
    at: Date,
  ): Promise<void> {
    await this.send(this.deadLetterTopic, [
      {
        key: raw.key,
        // The original bytes, untouched: whoever investigates sees exactly what was sent.
        value: raw.value,
        headers: {
          [DEAD_LETTER_HEADERS.reasonCode]: code,
          [DEAD_LETTER_HEADERS.reason]: reason,
          [DEAD_LETTER_HEADERS.sourceTopic]: raw.topic,
          [DEAD_LETTER_HEADERS.sourcePartition]: String(raw.partition),
          [DEAD_LETTER_HEADERS.sourceOffset]: raw.offset,
          [DEAD_LETTER_HEADERS.deadLetteredAt]: at.toISOString(),
        },
      },
    ]);
  }

  async disconnect(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await (await producer?.catch(() => undefined))?.disconnect();
  }

  private async send(
    topic: string,
    messages: Array<{
      key: string | null;
      value: string | Buffer | null;
      headers: Record<string, string>;
    }>,
  ): Promise<void> {
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
