import { Logger } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { KafkaConfig } from '../config/studio-config';
import { EventPublisher, OutgoingMessage, PublisherStatus } from '../outbox/event-publisher';
import { KafkaEventPublisher } from './kafka-event-publisher';
import type { KafkaLogSink } from './kafka-log';

type Request =
  | { id: number; op: 'connect'; topics: string[] }
  | { id: number; op: 'publish'; topic: string; messages: OutgoingMessage[] }
  | { id: number; op: 'disconnect' };
type Reply =
  | { id: number; status: PublisherStatus; error?: string }
  | { level: keyof KafkaLogSink; line: string };

/**
 * The relay's Kafka producer in a worker thread: encoding and sending events (kafkajs' record
 * encoding, checksums, the requests) no longer take the thread the tables and the command intake
 * run on. The worker runs the same KafkaEventPublisher, so its guarantees are unchanged: publishes
 * go out in the order asked, each resolves once acknowledged by all in-sync replicas, and after a
 * failed one every later one is refused untried until connect(). A worker that dies fails what it
 * had in hand and counts as a failed send: publishes are refused until the relay connects again
 * (the relay then sends the unacknowledged events again from the outbox, same event ids).
 *
 * Only from compiled JavaScript (the worker loads this very file); elsewhere (tests run from
 * TypeScript) `WorkerEventPublisher.available` is false and KafkaEventPublisher is used in-thread.
 */
export class WorkerEventPublisher extends EventPublisher {
  readonly enabled = true;
  private readonly logger = new Logger('KafkaEventPublisher');
  private worker?: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve(): void; reject(e: Error): void }>();
  private last: PublisherStatus = { enabled: true, connected: false };
  /** Why publishes are refused: the worker died with sends in hand, until connect(). */
  private failed?: string;

  static get available(): boolean {
    return __filename.endsWith('.js') && existsSync(__filename);
  }

  constructor(private readonly config: KafkaConfig) {
    super();
  }

  async connect(topics: string[]): Promise<void> {
    this.failed = undefined;
    await this.request({ id: this.next++, op: 'connect', topics });
  }

  /** Posted at once (no await before), so the worker receives publishes in the order asked. */
  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (this.failed) throw new Error(`Not sent: an earlier send failed (${this.failed})`);
    await this.request({ id: this.next++, op: 'publish', topic, messages });
  }

  status(): PublisherStatus {
    return this.last;
  }

  /** Disconnects the worker's producer, then ends the worker. */
  async disconnect(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.request({ id: this.next++, op: 'disconnect' }).catch(() => undefined);
    this.worker = undefined;
    await worker.terminate();
  }

  private request(request: Request): Promise<void> {
    const worker = this.spawn();
    return new Promise<void>((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(__filename, { workerData: { eventsWorker: this.config } });
    // Never what keeps the process alive: what it has in hand is awaited by the relay, and an
    // event not acknowledged at exit is still in the outbox for the next start.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      if ('level' in reply) return this.logger[reply.level](reply.line);
      this.last = reply.status;
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(reply.error));
    });
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failed = error.message;
      this.last = { enabled: true, connected: false, lastError: error.message };
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`The events worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The worker's side: one KafkaEventPublisher, requests handled in the order received. */
function serve(config: KafkaConfig): void {
  const port = parentPort!;
  const forward =
    (level: keyof KafkaLogSink) =>
    (line: string): void =>
      port.postMessage({ level, line } satisfies Reply);
  const publisher = new KafkaEventPublisher(config, {
    error: forward('error'),
    warn: forward('warn'),
    log: forward('log'),
    debug: forward('debug'),
  });
  port.on('message', (request: Request) => {
    // Not awaited here: the publisher queues its work in call order itself, so a publish asked
    // while the one before is in flight is encoded and sent right after it is acknowledged.
    const work =
      request.op === 'connect'
        ? publisher.connect(request.topics)
        : request.op === 'publish'
          ? publisher.publish(request.topic, request.messages)
          : publisher.disconnect();
    work.then(
      () => port.postMessage({ id: request.id, status: publisher.status() } satisfies Reply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          status: publisher.status(),
          error: String((error as Error)?.message ?? error),
        } satisfies Reply),
    );
  });
}

if (!isMainThread && (workerData as { eventsWorker?: KafkaConfig } | null)?.eventsWorker) {
  serve((workerData as { eventsWorker: KafkaConfig }).eventsWorker);
}
