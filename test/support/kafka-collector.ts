import type { EventEnvelope } from '@studio/contracts';
import { Consumer, Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';

export interface ReceivedEvent {
  key: string;
  envelope: EventEnvelope;
  headers: Record<string, string>;
  partition: number;
  offset: string;
}

/** A separate kafkajs consumer, as a casino platform would run one, collecting a topic's events. */
export class KafkaCollector {
  readonly events: ReceivedEvent[] = [];
  private consumer?: Consumer;

  constructor(
    private readonly brokers: string,
    private readonly topic: string,
  ) {}

  async start(): Promise<void> {
    const kafka = new Kafka({
      clientId: 'test-platform',
      brokers: [this.brokers],
      logLevel: logLevel.NOTHING,
      retry: { retries: 10, initialRetryTime: 200 },
    });
    this.consumer = kafka.consumer({
      groupId: `test-platform-${randomBytes(4).toString('hex')}`,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message, partition }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) {
          headers[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
        }
        this.events.push({
          key: message.key?.toString('utf8') ?? '',
          envelope: JSON.parse(message.value!.toString('utf8')) as EventEnvelope,
          headers,
          partition,
          offset: message.offset,
        });
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }

  /** Waits until `count` received events match the filter (default: every event). */
  async waitForMatching(
    count: number,
    filter: (e: ReceivedEvent) => boolean,
    timeoutMs = 60_000,
  ): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matching = this.events.filter(filter);
      if (matching.length >= count) return matching;
      if (Date.now() > deadline) {
        throw new Error(
          `Expected ${count} matching events, received ${matching.length} in ${timeoutMs} ms`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async waitForCount(count: number, timeoutMs = 60_000): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `Expected ${count} events, received ${this.events.length} in ${timeoutMs} ms`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.events;
  }
}
