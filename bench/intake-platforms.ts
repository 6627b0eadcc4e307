import type { CommandMessage, CommandResultMessage } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { Consumer, Kafka, logLevel, Partitioners, Producer, TopicMessages } from 'kafkajs';
import { ensureKafkaTopics } from '../src/kafka/kafka-topics';
import { PlatformTopics } from '../src/kafka/platform-topics';

/**
 * The bench's casino platforms: `count` of them, player i belonging to platform `p<i % count>`,
 * each sending its players' commands to its own commands topic and reading its own results topic,
 * as the per-platform contract (2.0) has them. Their topics are made before the studio starts (as
 * `npm run platform:kafka -- setup` would), so the intake reads them from its first batch.
 */
export class BenchPlatforms {
  private readonly kafka: Kafka;
  private readonly topics: PlatformTopics;
  private producer?: Producer;
  private consumer?: Consumer;
  private readonly listeners: Array<(r: CommandResultMessage) => void> = [];

  constructor(
    brokers: string,
    prefix: string,
    readonly count: number,
    private readonly partitions: number,
  ) {
    this.kafka = new Kafka({
      clientId: 'bench-platforms',
      brokers: [brokers],
      logLevel: logLevel.NOTHING,
    });
    this.topics = new PlatformTopics(prefix);
  }

  platformOf(player: number): string {
    return `p${player % this.count}`;
  }

  async createTopics(): Promise<void> {
    const ids = Array.from({ length: this.count }, (_, k) => `p${k}`);
    await ensureKafkaTopics(
      this.kafka,
      ids.flatMap((id) =>
        (['commands', 'results', 'events'] as const).map((kind) => ({
          topic: this.topics.platformTopic(id, kind),
          numPartitions: this.partitions,
        })),
      ),
    );
  }

  onResult(listener: (r: CommandResultMessage) => void): void {
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
    });
    this.consumer = this.kafka.consumer({
      groupId: `bench-platforms-${randomBytes(4).toString('hex')}`,
    });
    await Promise.all([this.producer.connect(), this.consumer.connect()]);
    const results = Array.from({ length: this.count }, (_, k) =>
      this.topics.platformTopic(`p${k}`, 'results'),
    );
    await this.consumer.subscribe({ topics: results, fromBeginning: true });
    await this.consumer.run({
      partitionsConsumedConcurrently: 4,
      eachMessage: async ({ message }) => {
        const result = JSON.parse(message.value!.toString('utf8')) as CommandResultMessage;
        for (const l of this.listeners) l(result);
      },
    });
  }

  /** One request for a chunk, each command on its platform's commands topic. */
  async sendMany(commands: readonly CommandMessage[], players: readonly number[]): Promise<void> {
    await this.producer!.sendBatch({
      acks: -1,
      topicMessages: commandsByTopic(commands, (_, i) =>
        this.topics.commandsTopic(this.platformOf(players[i])),
      ),
    });
  }

  async stop(): Promise<void> {
    await Promise.all([this.consumer?.disconnect(), this.producer?.disconnect()]);
  }
}

/**
 * Commands as one produce request over several topics (`sendBatch`), keyed by table, in order
 * within each topic. The bench's platforms and the floor's send their chunks with it, so both do
 * the same work per command.
 */
export function commandsByTopic(
  commands: readonly CommandMessage[],
  topicOf: (command: CommandMessage, index: number) => string,
): TopicMessages[] {
  const byTopic = new Map<string, Array<{ key: string; value: string }>>();
  commands.forEach((c, i) => {
    const topic = topicOf(c, i);
    let list = byTopic.get(topic);
    if (!list) byTopic.set(topic, (list = []));
    list.push({ key: c.tableId, value: JSON.stringify(c) });
  });
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
