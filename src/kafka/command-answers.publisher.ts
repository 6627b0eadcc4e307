import { Logger } from '@nestjs/common';
import {
  CommandResultMessage,
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_MAX_VALUE_BYTES,
  DeadLetterReasonCode,
  topicName,
} from '@studio/contracts';
import type { KafkaConfig } from '../config/studio-config';
import type { RawCommandMessage } from './raw-command-message';
import { AnswersWorker } from './answers-worker';
import { ensureKafkaTopics } from './kafka-topics';
import { PlatformTopics } from './platform-topics';
import { ResultsProducer, RoutedResults } from './results-producer';

/**
 * Publishes answers to the results topics and unreadable commands to the dead-letter topics (each
 * back to the platform whose topic it came from), with an
 * idempotent producer (acks from all in-sync replicas). A failed send throws, so the consumer does
 * not commit the command's offset and answers it again after the retry (the stored answer).
 * Answers go out from a worker thread where the service runs compiled (AnswersWorker), dead
 * letters (rare) from the service's thread.
 */
export class CommandAnswersPublisher {
  private readonly logger = new Logger('CommandAnswers');
  private readonly producer: ResultsProducer;
  private readonly worker?: AnswersWorker;
  readonly resultsTopic: string;
  readonly deadLetterTopic: string;
  readonly commandsTopic: string;
  readonly topics: PlatformTopics;
  private readonly knownTopics: Set<string>;

  constructor(
    private readonly config: KafkaConfig,
    offThread = AnswersWorker.available,
  ) {
    const warn = (message: string) => this.logger.warn(message);
    this.producer = new ResultsProducer(config, warn);
    if (offThread) this.worker = new AnswersWorker(config, warn);
    this.commandsTopic = topicName('platformCommands', config.topicPrefix);
    this.resultsTopic = topicName('commandResults', config.topicPrefix);
    this.deadLetterTopic = topicName('commandDeadLetters', config.topicPrefix);
    this.topics = new PlatformTopics(config.topicPrefix);
    this.knownTopics = new Set([this.resultsTopic, this.deadLetterTopic]);
  }

  /** Creates the command, results and dead-letter topics when missing (before the consumer joins). */
  async ensureTopics(): Promise<void> {
    const created = await ensureKafkaTopics(this.producer.client, [
      { topic: this.commandsTopic, numPartitions: this.config.commands.partitions },
      { topic: this.resultsTopic, numPartitions: this.config.commands.partitions },
      { topic: this.deadLetterTopic, numPartitions: 1 },
    ]);
    if (created.length > 0) this.logger.log(`Created Kafka topics ${created.join(', ')}`);
    // The first answers should not wait for a worker to start and a producer to connect.
    await (this.worker ? this.worker.warmUp() : this.producer.warmUp()).catch((error: unknown) =>
      this.logger.warn(
        `The answers producer will connect with the first answers: ${String(error)}`,
      ),
    );
  }

  async publishResult(result: CommandResultMessage, commandTopic?: string): Promise<void> {
    await this.publishResults([result], commandTopic ? [commandTopic] : undefined);
  }

  /**
   * Answers in the order given, each back the way its command came (`commandTopics[i]`, the topic
   * it was read from: a platform's commands topic answers on that platform's results topic, the v1
   * topic on the v1 results topic); one producer request per 1,000 answers however many platforms.
   */
  async publishResults(
    results: readonly CommandResultMessage[],
    commandTopics?: readonly string[],
  ): Promise<void> {
    if (results.length === 0) return;
    const routed = this.route(results, commandTopics);
    await this.ensureOwnTopics(
      routed.map((r) => r.topic),
      this.config.commands.partitions,
    );
    if (this.worker) await this.worker.publish(routed);
    else await this.producer.sendResults(routed);
  }

  /** Consecutive answers for one topic travel together; their order is kept. */
  private route(
    results: readonly CommandResultMessage[],
    commandTopics?: readonly string[],
  ): RoutedResults[] {
    if (!commandTopics) return [{ topic: this.resultsTopic, results }];
    const byTopic = new Map<string, CommandResultMessage[]>();
    results.forEach((result, i) => {
      const topic = this.topics.resultsTopicFor(commandTopics[i] ?? this.commandsTopic);
      let list = byTopic.get(topic);
      if (!list) byTopic.set(topic, (list = []));
      list.push(result);
    });
    return [...byTopic].map(([topic, list]) => ({ topic, results: list }));
  }

  /**
   * A platform's results and dead-letter topics are made with its other topics by the set-up
   * command (`npm run platform:kafka -- setup`); made here too if missing, once per topic per
   * process.
   */
  private async ensureOwnTopics(topics: readonly string[], numPartitions: number): Promise<void> {
    const missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    await ensureKafkaTopics(
      this.producer.client,
      missing.map((topic) => ({ topic, numPartitions })),
    );
    for (const topic of missing) this.knownTopics.add(topic);
  }

  async publishDeadLetter(
    raw: RawCommandMessage,
    code: DeadLetterReasonCode,
    reason: string,
    at: Date,
  ): Promise<void> {
    // The original bytes, untouched, so whoever investigates sees exactly what was sent; only a
    // value too large to publish again with the headers (the broker refused it, the consumer
    // stopped on it and every platform's commands with it) is cut, its size said.
    const cut = raw.value !== null && raw.value.length > DEAD_LETTER_MAX_VALUE_BYTES;
    const topic = this.topics.deadLettersTopicFor(raw.topic);
    await this.ensureOwnTopics([topic], 1);
    await this.producer.send(topic, [
      {
        key: raw.key,
        value: cut ? raw.value!.subarray(0, DEAD_LETTER_MAX_VALUE_BYTES) : raw.value,
        headers: {
          [DEAD_LETTER_HEADERS.reasonCode]: code,
          [DEAD_LETTER_HEADERS.reason]: reason,
          [DEAD_LETTER_HEADERS.sourceTopic]: raw.topic,
          [DEAD_LETTER_HEADERS.sourcePartition]: String(raw.partition),
          [DEAD_LETTER_HEADERS.sourceOffset]: raw.offset,
          [DEAD_LETTER_HEADERS.deadLetteredAt]: at.toISOString(),
          ...(cut ? { [DEAD_LETTER_HEADERS.originalBytes]: String(raw.value!.length) } : {}),
        },
      },
    ]);
  }

  async disconnect(): Promise<void> {
    await Promise.all([this.worker?.close(), this.producer.disconnect()]);
  }
}
