import { Logger } from '@nestjs/common';
import { Kafka, logLevel, LogEntry } from 'kafkajs';
import { Worker } from 'node:worker_threads';
import type { KafkaConfig } from '../config/studio-config';
import { oneLine } from '../common/one-line';
import { kafkaConnection } from './kafka-connection';
import { ensureKafkaTopics } from './kafka-topics';
import { EventPublisher, OutgoingMessage, PublisherStatus } from '../outbox/event-publisher';

/** The producer's client settings (besides brokers, TLS and SASL), in its thread as on this one. */
const CLIENT_SETTINGS = {
  requestTimeout: 30_000,
  retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 },
};

/**
 * Idempotent (acks from all in-sync replicas, one request in flight so a retry can never reorder
 * a table's events); Java-client-compatible murmur2 partitioner, so platforms in any language find
 * a table's partition. The thread below adds `createPartitioner: Partitioners.DefaultPartitioner`.
 */
export const EVENT_PRODUCER_SETTINGS = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 },
} as const;

/**
 * The producer's thread, plain JavaScript (so it runs the same from the sources under test as from
 * the build). Encoding a send (record batches, CRC, buffers, and the garbage they make) costs more
 * than everything else the relay does per event; on a thread of its own it overlaps the relay's
 * reads and marks, and stays off the event loop that serves the tables and the platforms' commands.
 * It does one thing per request, in the order asked: `connect` (and forget an earlier failure),
 * `send`, or `reset` (drop the producer). Once a send fails, the producer is dropped and every send
 * after it is refused untried until the next `connect`: sends may be queued here before the ones
 * ahead of them are acknowledged, and none may reach the broker after one that did not.
 */
const PRODUCER_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Kafka, logLevel, Partitioners } = require(workerData.kafkajs);
const kafka = new Kafka({
  ...workerData.client,
  logLevel: logLevel.WARN,
  logCreator: () => ({ namespace, log }) => {
    const { message, ...extra } = log;
    parentPort.postMessage({ log: { namespace, message: String(message), extra: JSON.stringify(extra) } });
  },
});
let producer;
async function connect() {
  if (producer) return producer;
  const created = kafka.producer({ ...workerData.producer, createPartitioner: Partitioners.DefaultPartitioner });
  created.on(created.events.DISCONNECT, () => parentPort.postMessage({ disconnected: true }));
  await created.connect();
  producer = created;
  return created;
}
async function reset() {
  const dropped = producer;
  producer = undefined;
  if (dropped) await dropped.disconnect().catch(() => undefined);
}
let failed;
async function send(topic, messages) {
  if (failed) throw new Error('Not sent: an earlier send failed (' + failed + ')');
  try {
    await (await connect()).send({ topic, acks: -1, messages });
  } catch (error) {
    failed = String((error && error.message) || error);
    await reset();
    throw error;
  }
}
let queue = Promise.resolve();
parentPort.on('message', (request) => {
  queue = queue.then(async () => {
    try {
      if (request.op === 'connect') {
        failed = undefined;
        await connect();
      } else if (request.op === 'send') await send(request.topic, request.messages);
      else await reset();
      parentPort.postMessage({ id: request.id });
    } catch (error) {
      const { name, message, code, type, retriable } = error || {};
      parentPort.postMessage({ id: request.id, error: { name, message: String(message || error), code, type, retriable } });
    }
  });
});
`;

interface ThreadReply {
  id?: number;
  error?: { name?: string; message: string; code?: string; type?: string; retriable?: boolean };
  log?: { namespace: string; message: string; extra: string };
  disconnected?: boolean;
}

/** The producer thread seen from here: requests answered in order, each as a promise. */
class ProducerThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(): void; reject(e: Error): void }>();
  private nextId = 1;
  exited = false;

  constructor(
    workerData: unknown,
    onLog: (log: NonNullable<ThreadReply['log']>) => void,
    onDisconnect: () => void,
  ) {
    this.worker = new Worker(PRODUCER_THREAD, { eval: true, workerData });
    // Only a request waiting for its answer keeps the process alive, as a socket would.
    this.worker.unref();
    this.worker.on('message', (reply: ThreadReply) => {
      if (reply.log) return onLog(reply.log);
      if (reply.disconnected) return onDisconnect();
      const waiting = this.pending.get(reply.id!);
      this.pending.delete(reply.id!);
      if (this.pending.size === 0) this.worker.unref();
      if (!reply.error) return waiting?.resolve();
      waiting?.reject(Object.assign(new Error(reply.error.message), reply.error));
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.failAll(new Error(`The Kafka producer thread ended (exit code ${code})`));
      onDisconnect();
    });
  }

  request(op: 'connect' | 'send' | 'reset', topic?: string, messages?: OutgoingMessage[]) {
    if (this.exited) return Promise.reject(new Error('The Kafka producer thread has ended'));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, topic, messages });
    });
  }

  async end(): Promise<void> {
    if (!this.exited) await this.request('reset').catch(() => undefined);
    await this.worker.terminate();
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    waiting.forEach((w) => w.reject(error));
  }
}

/**
 * Publishes outbox rows with an idempotent kafkajs producer that runs on a thread of its own (see
 * PRODUCER_THREAD); topics are made on this thread with an admin client.
 */
export class KafkaEventPublisher extends EventPublisher {
  readonly enabled = true;
  private readonly logger = new Logger('KafkaEventPublisher');
  private readonly kafka: Kafka;
  private thread?: ProducerThread;
  private connected = false;
  private lastError?: string;
  private readonly ensuredTopics = new Set<string>();

  constructor(private readonly config: KafkaConfig) {
    super();
    this.kafka = new Kafka({
      clientId: config.clientId,
      // Brokers, TLS and SASL/SCRAM: the same link settings as every other Kafka client.
      ...kafkaConnection(config),
      ...CLIENT_SETTINGS,
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ namespace, log }: LogEntry) => {
          const { message, ...extra } = log;
          this.log(namespace, String(message), JSON.stringify(extra));
        },
    });
  }

  async connect(topics: string[]): Promise<void> {
    try {
      await this.ensureTopics(topics);
      this.thread ??= new ProducerThread(
        {
          kafkajs: require.resolve('kafkajs'),
          client: {
            clientId: this.config.clientId,
            ...kafkaConnection(this.config),
            ...CLIENT_SETTINGS,
          },
          producer: EVENT_PRODUCER_SETTINGS,
        },
        ({ namespace, message, extra }) => this.log(namespace, message, extra),
        () => {
          this.connected = false;
        },
      );
      await this.thread.request('connect');
      this.connected = true;
      this.lastError = undefined;
    } catch (error) {
      this.connected = false;
      this.lastError = oneLine(error);
      await this.dropThreadIfEnded();
      throw error;
    }
  }

  /**
   * Asks the thread right away (no await before the request), so publishes go out in the order
   * they are called. A failed send drops the thread's producer; connect() starts afresh.
   */
  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (!this.thread) await this.connect([topic]);
    try {
      await this.thread!.request('send', topic, messages);
      this.connected = true;
      this.lastError = undefined;
    } catch (error) {
      this.connected = false;
      this.lastError = oneLine(error);
      await this.dropThreadIfEnded();
      throw error;
    }
  }

  status(): PublisherStatus {
    return { enabled: true, connected: this.connected, lastError: this.lastError };
  }

  async disconnect(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    this.connected = false;
    await thread?.end();
  }

  private async dropThreadIfEnded(): Promise<void> {
    if (!this.thread?.exited) return;
    const ended = this.thread;
    this.thread = undefined;
    await ended.end();
  }

  private log(namespace: string, message: string, extra: string): void {
    // Retries are bounded on purpose: a send that fails is retried by the relay from the outbox
    // (same event ids), so the producer's end-to-end warning about it is expected.
    if (message.includes('Limiting retries for the idempotent producer')) return;
    // kafkajs reports errors it retries itself; the relay logs the failures that matter.
    this.logger.warn(`kafkajs ${namespace}: ${message} ${extra}`);
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
