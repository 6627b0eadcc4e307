import { Consumer, Kafka, KafkaConfig, Producer } from 'kafkajs';
import { EventOrder, OrderProblem } from './event-order';
import type { CommandResult, StudioCommand, TableEvent } from './generated/messages';
import type { StudioTopics } from './topics';
import {
  checkCommand,
  checkCommandResult,
  checkEvent,
  checkSharedEvent,
  Violation,
} from './validation';

export interface PlatformClientOptions {
  /** kafkajs settings: brokers, clientId, ssl, sasl (the studio's cluster uses SCRAM over TLS). */
  kafka: KafkaConfig;
  topics: StudioTopics;
  /** The consumer group of this platform's reader. */
  groupId: string;
  /** How long `send` waits for the answer (default 15 s). */
  answerTimeoutMs?: number;
  /** Read events from the start of the topics (default: only new ones). */
  fromBeginning?: boolean;
}

/** A message read that does not pass its schema (it is not delivered). */
export interface Unreadable {
  topic: string;
  violations: Violation[];
}

/** Where an event was read. */
export interface EventMeta {
  topic: string;
}

export type EventHandler = (event: TableEvent, meta: EventMeta) => void | Promise<void>;

type Pending = {
  resolve: (r: CommandResult) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
};

/**
 * A casino platform's client of the studio over Kafka: `send` a command and await its answer
 * (paired by commandId), `onEvent` to consume table events in order per table, the hash-chain
 * head checked when the envelope carries it.
 */
export class StudioPlatformClient {
  private readonly kafka: Kafka;
  private producer?: Producer;
  private consumer?: Consumer;
  private readonly pending = new Map<string, Pending>();
  private readonly order: EventOrder;
  private readonly eventHandlers: Array<EventHandler> = [];
  private readonly problemHandlers: Array<(p: OrderProblem | Unreadable) => void> = [];

  constructor(private readonly options: PlatformClientOptions) {
    this.kafka = new Kafka(options.kafka);
    // Two events topics (v2) skip each other's numbers: no gap is a problem there.
    this.order = new EventOrder({ gaps: options.topics.sharedEvents === undefined });
  }

  /**
   * Each table's events, once per topic and in `seq` order on it. With v2 topics the shared and
   * the private topic are read side by side (not ordered with each other), and an event that
   * names players comes on both: without them on the shared topic (SHARED_TOPIC_OMITS), with
   * your players' items on yours (`meta.topic` says which; the same eventId).
   */
  onEvent(handler: EventHandler): this {
    this.eventHandlers.push(handler);
    return this;
  }

  /** Gaps, chain inconsistencies and messages that fail their schema. */
  onProblem(handler: (problem: OrderProblem | Unreadable) => void): this {
    this.problemHandlers.push(handler);
    return this;
  }

  async connect(): Promise<void> {
    this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    this.consumer = this.kafka.consumer({ groupId: this.options.groupId });
    await this.consumer.connect();
    const { results, events, sharedEvents } = this.options.topics;
    await this.consumer.subscribe({
      topics: sharedEvents === undefined ? [results, events] : [results, events, sharedEvents],
      fromBeginning: this.options.fromBeginning ?? false,
    });
    await this.consumer.run({
      eachMessage: async ({ topic, message }) => {
        const value: unknown = JSON.parse(message.value?.toString('utf8') ?? 'null');
        if (topic === results) this.answer(value);
        else await this.event(value, topic);
      },
    });
  }

  /** Sends a command (checked against its schema first) and resolves with its answer. */
  async send(command: StudioCommand): Promise<CommandResult> {
    const checked = checkCommand(command);
    if (!checked.ok) {
      const text = checked.violations.map((v) => `${v.path || '/'} ${v.message}`).join('; ');
      throw new Error(`${command.type} does not pass its schema: ${text}`);
    }
    const answer = new Promise<CommandResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(command.commandId);
        reject(new Error(`No answer to ${command.commandId} within the timeout`));
      }, this.options.answerTimeoutMs ?? 15_000);
      this.pending.set(command.commandId, { resolve, reject, timer });
    });
    await this.producer!.send({
      topic: this.options.topics.commands,
      acks: -1,
      messages: [{ key: command.tableId, value: JSON.stringify(command) }],
    });
    return answer;
  }

  async close(): Promise<void> {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(`Closed before the answer to ${id}`));
    }
    this.pending.clear();
    await this.consumer?.disconnect();
    await this.producer?.disconnect();
  }

  private answer(value: unknown): void {
    const checked = checkCommandResult(value);
    if (!checked.ok) return this.problem({ topic: this.options.topics.results, ...checked });
    const waiting = this.pending.get(checked.value.commandId);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(checked.value.commandId);
    waiting.resolve(checked.value);
  }

  private async event(value: unknown, topic: string): Promise<void> {
    // The shared topic (and v1's, for other platforms' players) leaves players out of the events
    // that name them; a platform's private v2 topic carries them whole, and is checked so.
    const { events, sharedEvents } = this.options.topics;
    const whole = sharedEvents !== undefined && topic === events;
    const checked = whole ? checkEvent(value) : checkSharedEvent(value);
    if (!checked.ok) return this.problem({ topic, violations: checked.violations });
    const { deliver, problems } = this.order.accept(checked.value, topic);
    problems.forEach((p) => this.problem(p));
    if (!deliver) return;
    for (const handler of this.eventHandlers) await handler(checked.value, { topic });
  }

  private problem(problem: OrderProblem | Unreadable): void {
    for (const handler of this.problemHandlers) handler(problem);
  }
}
