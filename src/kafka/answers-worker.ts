import type { CommandResultMessage } from '@studio/contracts';
import { existsSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { KafkaConfig } from '../config/studio-config';
import { ResultsProducer } from './results-producer';

type Request =
  | { id: number; topic: string; results: readonly CommandResultMessage[] }
  | { id: number; warmUp: true }
  | { id: number };
type Reply = { id: number; error?: string } | { warn: string };

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
  private worker?: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve(): void; reject(e: Error): void }>();

  static get available(): boolean {
    return __filename.endsWith('.js') && existsSync(__filename);
  }

  constructor(
    private readonly config: KafkaConfig,
    private readonly warn: (message: string) => void,
  ) {}

  publish(topic: string, results: readonly CommandResultMessage[]): Promise<void> {
    return this.request({ id: this.next++, topic, results });
  }

  /** Starts the worker and connects its producer (at start-up, not with the first answers). */
  warmUp(): Promise<void> {
    return this.request({ id: this.next++, warmUp: true });
  }

  /** Disconnects the worker's producer, then ends the worker. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.request({ id: this.next++ }).catch(() => undefined);
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
    const worker = new Worker(__filename, { workerData: { answersWorker: this.config } });
    // Never what keeps the process alive: a request in flight is awaited by its caller, and an
    // answer lost at exit is published again from the stored answers after the restart.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      if ('warn' in reply) return this.warn(reply.warn);
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(reply.error));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`The answers worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The worker's side: one producer, requests handled one after the other. */
function serve(config: KafkaConfig): void {
  const port = parentPort!;
  const producer = new ResultsProducer(config, (warn) => port.postMessage({ warn }));
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: Request) => {
    queue = queue.then(async () => {
      try {
        if ('topic' in request) await producer.sendResults(request.topic, request.results);
        else if ('warmUp' in request) await producer.warmUp();
        else await producer.disconnect();
        port.postMessage({ id: request.id });
      } catch (error) {
        port.postMessage({ id: request.id, error: String((error as Error)?.message ?? error) });
      }
    });
  });
}

if (!isMainThread && (workerData as { answersWorker?: KafkaConfig } | null)?.answersWorker) {
  serve((workerData as { answersWorker: KafkaConfig }).answersWorker);
}
