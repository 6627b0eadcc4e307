import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** What a worker answers a request with: the request's id, and an error message if it failed. */
export interface WorkerReply {
  id: number;
  error?: string;
}

/** Starts the worker thread running `file` (the default: a plain node Worker). */
export type StartWorker = (file: string, workerData: Record<string, unknown>) => Worker;

export const startWorker: StartWorker = (file, workerData) => new Worker(file, { workerData });

export interface WorkerLinkHooks<R extends WorkerReply> {
  /** Every reply, before its request settles (a worker's status travels with its replies). */
  reply?(reply: R): void;
  /** A message that answers no request (a log line the worker forwards). */
  other?(message: unknown): void;
  /** The worker died: what it had in hand has failed with this error. */
  died?(error: Error): void;
}

/**
 * Requests to a worker thread that runs a compiled file of this project, each settled by the reply
 * with its id; the worker is started with the first request. Requests reach the worker in the
 * order made. If the worker dies, every request in hand fails and the next one starts a new
 * worker. The worker never keeps the process alive: a request in flight is awaited by its caller.
 */
export class WorkerLink<Q extends { id: number }, R extends WorkerReply> {
  private worker?: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve(r: R): void; reject(e: Error): void }>();

  /** Whether `file` can run in a worker: compiled JavaScript (tests run from TypeScript). */
  static canRun(file: string): boolean {
    return file.endsWith('.js') && existsSync(file);
  }

  constructor(
    private readonly file: string,
    private readonly workerData: Record<string, unknown>,
    private readonly name: string,
    private readonly hooks: WorkerLinkHooks<R> = {},
    private readonly start: StartWorker = startWorker,
  ) {}

  request(make: (id: number) => Q): Promise<R> {
    const worker = this.spawn();
    const request = make(this.next++);
    return new Promise<R>((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Sends the last request (a clean disconnect), whatever its outcome, then ends the worker. */
  async close(last: (id: number) => Q): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.request(last).catch(() => undefined);
    this.worker = undefined;
    await worker.terminate();
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const worker = this.start(this.file, this.workerData);
    worker.unref();
    worker.on('message', (message: R | unknown) => {
      if (typeof (message as R)?.id !== 'number') return this.hooks.other?.(message);
      const reply = message as R;
      this.hooks.reply?.(reply);
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error === undefined) waiting?.resolve(reply);
      else waiting?.reject(new Error(reply.error));
    });
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      this.hooks.died?.(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`The ${this.name} exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
