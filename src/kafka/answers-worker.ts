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

/** The worker's side: one producer, requests handled one after the other. */
function serve(config: KafkaConfig): void {
  const port = parentPort!;
  const producer = new ResultsProducer(config, (warn) =>
    port.postMessage({ warn } satisfies Reply),
  );
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: Request) => {
    queue = queue.then(async () => {
      try {
        if ('routed' in request) await producer.sendResults(request.routed);
        else if ('warmUp' in request) await producer.warmUp();
        else await producer.disconnect();
        port.postMessage({ id: request.id } satisfies Reply);
      } catch (error) {
        port.postMessage({
          id: request.id,
          error: String((error as Error)?.message ?? error),
        } satisfies Reply);
      }
    });
  });
}

if (!isMainThread && (workerData as { answersWorker?: KafkaConfig } | null)?.answersWorker) {
  serve((workerData as { answersWorker: KafkaConfig }).answersWorker);
}
