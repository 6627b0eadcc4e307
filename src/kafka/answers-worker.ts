import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { KafkaConfig } from '../config/studio-config';
import { ResultsProducer, RoutedResults } from './results-producer';
import { WorkerLink, WorkerReply } from './worker-link';

type Request =
  { id: number; routed: readonly RoutedResults[] } | { id: number; warmUp: true } | { id: number };
type Reply = WorkerReply | { warn: string };

/**
 * Publishes command answers from a worker thread: encoding 100,000 answers for Kafka costs the
 * service's thread about 2 s of CPU, time the intake and the database calls need. Requests are
 * sent in the order made and each resolves once its answers are acknowledged (acks from all
 * in-sync replicas), exactly as on the service's thread. If the worker dies, what it had in hand
 * fails (the intake then re-reads those commands and answers them from the stored answers) and the
 * next request starts a new one.
 *
 * Only from compiled JavaScript (the worker loads this very file); elsewhere (tests run from
 * TypeScript) `AnswersWorker.available` is false and the answers are published in-thread.
 */
export class AnswersWorker {
  private readonly link: WorkerLink<Request, WorkerReply>;

  static get available(): boolean {
    return WorkerLink.canRun(__filename);
  }

  constructor(config: KafkaConfig, warn: (message: string) => void) {
    this.link = new WorkerLink(__filename, { answersWorker: config }, 'answers worker', {
      other: (message) => warn((message as { warn: string }).warn),
    });
  }

  async publish(routed: readonly RoutedResults[]): Promise<void> {
    await this.link.request((id) => ({ id, routed }));
  }

  /** Starts the worker and connects its producer (at start-up, not with the first answers). */
  async warmUp(): Promise<void> {
    await this.link.request((id) => ({ id, warmUp: true }));
  }

  /** Disconnects the worker's producer, then ends the worker. */
  close(): Promise<void> {
    return this.link.close((id) => ({ id }));
  }
}

/**
 * The worker's side: one producer, requests handled one after the other; answers asked for while
 * a send is in flight go out together in the next one (one request for the chunks of several
 * partitions, or of several platforms' topics, instead of one each), each in the order asked.
 */
function serve(config: KafkaConfig): void {
  const port = parentPort!;
  const producer = new ResultsProducer(config, (warn) =>
    port.postMessage({ warn } satisfies Reply),
  );
  const reply = (id: number, error?: unknown) =>
    port.postMessage(
      (error === undefined
        ? { id }
        : { id, error: String((error as Error)?.message ?? error) }) satisfies Reply,
    );
  let queue: Promise<void> = Promise.resolve();
  let waiting: Array<Extract<Request, { routed: unknown }>> = [];
  port.on('message', (request: Request) => {
    if ('routed' in request) {
      waiting.push(request);
      // A send of the waiting answers is already queued: this one joins it.
      if (waiting.length > 1) return;
      queue = queue.then(async () => {
        const group = waiting;
        waiting = [];
        try {
          await producer.sendResults(group.flatMap((r) => r.routed));
          for (const r of group) reply(r.id);
        } catch (error) {
          for (const r of group) reply(r.id, error ?? 'send failed');
        }
      });
      return;
    }
    queue = queue.then(async () => {
      try {
        if ('warmUp' in request) await producer.warmUp();
        else await producer.disconnect();
        reply(request.id);
      } catch (error) {
        reply(request.id, error ?? 'failed');
      }
    });
  });
}

if (!isMainThread && (workerData as { answersWorker?: KafkaConfig } | null)?.answersWorker) {
  serve((workerData as { answersWorker: KafkaConfig }).answersWorker);
}
