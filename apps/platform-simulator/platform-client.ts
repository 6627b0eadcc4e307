import {
  CommandMessage,
  CommandResultMessage,
  DEAD_LETTER_HEADERS,
  EventEnvelope,
  topicName,
} from '@studio/contracts';
import { Consumer, Kafka, KafkaConfig, logLevel, Partitioners, Producer } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { backoffMs } from '../../src/common/backoff';

export interface ReceivedTableEvent {
  envelope: EventEnvelope;
  key: string;
  partition: number;
  offset: string;
  /** The value exactly as received, for scans that must not trust parsing. */
  raw: string;
}

export interface DeadLetter {
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

export interface PlatformClientOptions {
  brokers: string[];
  topicPrefix?: string;
  clientId?: string;
  /** Extra kafkajs settings (TLS, SASL) for a secured cluster. */
  connection?: Partial<KafkaConfig>;
  /** Which topics to read (default: events and results). */
  read?: { events?: boolean; results?: boolean; deadLetters?: boolean };
  /**
   * Whether `results` keeps every answer read (default true). A load run that only counts them
   * through onResult turns it off, so the answers of 100,000 players are not held in the memory of
   * the process it measures.
   */
  keepResults?: boolean;
  /**
   * How long `start` waits for the topics to be hosted (default 30 s). Topics the studio has just
   * created, or a broker that has just restarted, answer "does not host this topic-partition"
   * for a moment; a platform that starts beside the studio must not give up on that.
   */
  topicWaitMs?: number;
}

/** Metadata answers that mean "not hosted yet", not "wrong name": worth asking again. */
const NOT_HOSTED_YET = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);

/**
 * What a casino platform runs against the studio: a producer for commands (key = table id) and a
 * consumer reading table events, command results and (for tests) dead letters.
 */
export class PlatformKafkaClient {
  readonly events: ReceivedTableEvent[] = [];
  readonly results: CommandResultMessage[] = [];
  /** Every command sent (for the conformance records and the contract's examples). */
  readonly sent: CommandMessage[] = [];
  /** Each dead letter once (by its source message); repeats counted apart. */
  readonly deadLetters: DeadLetter[] = [];
  deadLetterRepeats = 0;
  private readonly deadLetterSources = new Set<string>();
  readonly topics: { events: string; commands: string; results: string; deadLetters: string };
  private readonly kafka: Kafka;
  private producer?: Producer;
  private consumer?: Consumer;
  private readonly listeners: Array<(e: ReceivedTableEvent) => void> = [];
  private readonly resultListeners: Array<(r: CommandResultMessage) => void> = [];

  constructor(private readonly options: PlatformClientOptions) {
    const prefix = options.topicPrefix ?? '';
    this.topics = {
      events: topicName('tableEvents', prefix),
      commands: topicName('platformCommands', prefix),
      results: topicName('commandResults', prefix),
      deadLetters: topicName('commandDeadLetters', prefix),
    };
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'platform-simulator',
      brokers: options.brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 20, initialRetryTime: 200, maxRetryTime: 3_000 },
      ...options.connection,
    });
  }

  onEvent(listener: (e: ReceivedTableEvent) => void): void {
    this.listeners.push(listener);
  }

  onResult(listener: (r: CommandResultMessage) => void): void {
    this.resultListeners.push(listener);
  }

  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      // A failed start leaves no client connected (and no retry loop keeping the process alive).
      await this.stop();
      throw error;
    }
  }

  private async connect(): Promise<void> {
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
    });
    await this.producer.connect();
    const read = { events: true, results: true, deadLetters: false, ...this.options.read };
    const topics = [
      ...(read.events ? [this.topics.events] : []),
      ...(read.results ? [this.topics.results] : []),
      ...(read.deadLetters ? [this.topics.deadLetters] : []),
    ];
    if (topics.length === 0) return;
    const keepResults = this.options.keepResults ?? true;
    this.consumer = this.kafka.consumer({
      groupId: `platform-${randomBytes(4).toString('hex')}`,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      allowAutoTopicCreation: false,
    });
    await this.consumer.connect();
    await this.subscribeWhenHosted(this.consumer, topics);
    await this.consumer.run({
      partitionsConsumedConcurrently: 4,
      eachMessage: async ({ topic, partition, message }) => {
        const key = message.key?.toString('utf8') ?? null;
        if (topic === this.topics.deadLetters) {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(message.headers ?? {})) {
            headers[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
          }
          // At least once, as every Kafka output: a dead letter published again after a
          // rebalance names the same source message, and a platform keeps it once.
          const source = `${headers[DEAD_LETTER_HEADERS.sourceTopic]}/${headers[DEAD_LETTER_HEADERS.sourcePartition]}/${headers[DEAD_LETTER_HEADERS.sourceOffset]}`;
          if (this.deadLetterSources.has(source)) {
            this.deadLetterRepeats += 1;
            return;
          }
          this.deadLetterSources.add(source);
          this.deadLetters.push({ key, value: message.value, headers });
          return;
        }
        const raw = message.value?.toString('utf8') ?? '';
        if (topic === this.topics.results) {
          const result = JSON.parse(raw) as CommandResultMessage;
          if (keepResults) this.results.push(result);
          for (const l of this.resultListeners) l(result);
          return;
        }
        const event: ReceivedTableEvent = {
          envelope: JSON.parse(raw) as EventEnvelope,
          key: key ?? '',
          partition,
          offset: message.offset,
          raw,
        };
        this.events.push(event);
        for (const l of this.listeners) l(event);
      },
    });
  }

  private async subscribeWhenHosted(consumer: Consumer, topics: string[]): Promise<void> {
    const waitMs = this.options.topicWaitMs ?? 30_000;
    const deadline = Date.now() + waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await consumer.subscribe({ topics, fromBeginning: true });
        return;
      } catch (error) {
        const type = (error as { type?: string }).type ?? '';
        if (!NOT_HOSTED_YET.has(type)) throw error;
        if (Date.now() >= deadline) {
          throw new Error(
            `topics ${topics.join(', ')} are not hosted by the cluster after ${waitMs} ms ` +
              `(${type}): is the studio running with topic prefix '${this.options.topicPrefix ?? ''}'?`,
            { cause: error },
          );
        }
        await new Promise((r) => setTimeout(r, backoffMs(100, 1_000, attempt)));
      }
    }
  }

  async send(command: CommandMessage): Promise<void> {
    await this.sendMany([command]);
  }

  /** Commands in one request; per table they keep the order given. */
  async sendMany(commands: readonly CommandMessage[]): Promise<void> {
    this.sent.push(...commands);
    await this.producer!.send({
      topic: this.topics.commands,
      acks: -1,
      messages: commands.map((c) => ({ key: c.tableId, value: JSON.stringify(c) })),
    });
  }

  /** Anything at all, for poison-message tests. */
  async sendRaw(key: string | null, value: Buffer | string | null): Promise<void> {
    await this.producer!.send({
      topic: this.topics.commands,
      acks: -1,
      messages: [{ key, value }],
    });
  }

  resultsFor(commandId: string): CommandResultMessage[] {
    return this.results.filter((r) => r.commandId === commandId);
  }

  async waitFor<T>(
    what: string,
    probe: () => T | undefined | false,
    timeoutMs = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline)
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The first answer to a command (waits for it). */
  waitForResult(commandId: string, timeoutMs = 30_000): Promise<CommandResultMessage> {
    return this.waitFor(
      `the answer to ${commandId}`,
      () => this.resultsFor(commandId)[0],
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
    await this.producer?.disconnect().catch(() => undefined);
  }
}
