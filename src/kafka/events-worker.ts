import { Logger } from '@nestjs/common';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { KafkaConfig } from '../config/studio-config';
import { EventPublisher, OutgoingMessage, PublisherStatus } from '../outbox/event-publisher';
import { KafkaEventPublisher } from './kafka-event-publisher';
import type { KafkaLogSink } from './kafka-log';
import { startWorker, StartWorker, WorkerLink, WorkerReply } from './worker-link';

type Request =
  | { id: number; op: 'connect'; topics: string[] }
  | { id: number; op: 'publish'; topic: string; messages: OutgoingMessage[] }
  | { id: number; op: 'topics'; topics: string[] }
  | { id: number; op: 'disconnect' };
type StatusReply = WorkerReply & { status: PublisherStatus };
type LogLine = { level: keyof KafkaLogSink; line: string };
type Reply = StatusReply | LogLine;

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
  private readonly link: WorkerLink<Request, StatusReply>;
  private last: PublisherStatus = { enabled: true, connected: false };
  /** Why publishes are refused: the worker died with sends in hand, until connect(). */
  private failed?: string;

  static get available(): boolean {
    return WorkerLink.canRun(__filename);
  }

  constructor(config: KafkaConfig, start: StartWorker = startWorker) {
    super();
    this.link = new WorkerLink(
      __filename,
      { eventsWorker: config },
      'events worker',
      {
        reply: (reply) => (this.last = reply.status),
        other: (message) => {
          const { level, line } = message as LogLine;
          this.logger[level](line);
        },
        died: (error) => {
          this.failed = error.message;
          this.last = { enabled: true, connected: false, lastError: error.message };
        },
      },
      start,
    );
  }

  async connect(topics: string[]): Promise<void> {
    this.failed = undefined;
    await this.link.request((id) => ({ id, op: 'connect', topics }));
  }

  /** Posted at once (no await before), so the worker receives publishes in the order asked. */
  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (this.failed) throw new Error(`Not sent: an earlier send failed (${this.failed})`);
    await this.link.request((id) => ({ id, op: 'publish', topic, messages }));
  }

  /** Posted at once, so it reaches the worker before the publishes asked after it. */
  async prepareTopics(topics: string[]): Promise<void> {
    await this.link.request((id) => ({ id, op: 'topics', topics }));
  }

  status(): PublisherStatus {
    return this.last;
  }

  /** Disconnects the worker's producer, then ends the worker. */
  disconnect(): Promise<void> {
    return this.link.close((id) => ({ id, op: 'disconnect' }));
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
          : request.op === 'topics'
            ? publisher.prepareTopics(request.topics)
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
