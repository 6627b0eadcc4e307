import type { EachBatchPayload } from 'kafkajs';
import { BatchingKafkaServer, chunkSizeFor, CommandBatchHandler } from './batching-kafka-server';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import type { IntakeOutcome } from './command-intake';

/** A partition's batch of `n` messages, recording what the server does with its offsets. */
function batchOf(n: number, log: string[]): EachBatchPayload {
  return {
    batch: {
      topic: 'commands',
      partition: 0,
      messages: Array.from({ length: n }, (_, i) => ({
        offset: String(i),
        key: Buffer.from('t1'),
        value: Buffer.from('{}'),
      })),
    },
    isRunning: () => true,
    isStale: () => false,
    resolveOffset: (offset: string) => log.push(`resolve ${offset}`),
    heartbeat: async () => undefined,
    commitOffsetsIfNecessary: async () => {
      log.push('commit');
    },
  } as unknown as EachBatchPayload;
}

function deferred(): { promise: Promise<void>; resolve(): void; reject(e: Error): void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function serverWith(handler: CommandBatchHandler): {
  eachBatch(p: EachBatchPayload): Promise<void>;
} {
  const server = new BatchingKafkaServer({ client: { brokers: [] } }, 'commands', handler, 2);
  return server as unknown as { eachBatch(p: EachBatchPayload): Promise<void> };
}

const first = (raws: RawCommandMessage[]) => raws[0].offset;

describe('BatchingKafkaServer (pipelined intake)', () => {
  it("applies chunk k+1 while chunk k's answers publish; resolves an offset only once published", async () => {
    const log: string[] = [];
    const publishes = [deferred(), deferred(), deferred()];
    const handler: CommandBatchHandler = {
      apply: async (raws) => {
        log.push(`apply ${first(raws)}`);
        return raws.map(() => ({}) as IntakeOutcome);
      },
      publish: async (raws) => {
        log.push(`publish ${first(raws)}`);
        await publishes[Number(first(raws)) / 2].promise;
        log.push(`published ${first(raws)}`);
      },
    };
    const done = serverWith(handler).eachBatch(batchOf(6, log));
    await new Promise((r) => setImmediate(r));
    // Chunk 0 publishing, chunk 1 already applied; nothing resolved yet.
    expect(log.filter((l) => l !== 'commit')).toEqual(['apply 0', 'publish 0', 'apply 2']);
    publishes[0].resolve();
    publishes[1].resolve();
    publishes[2].resolve();
    await done;
    expect(log.filter((l) => l.startsWith('publish '))).toEqual([
      'publish 0',
      'publish 2',
      'publish 4',
    ]);
    // Each offset is resolved after its chunk's answers are out, in order.
    for (const [chunk, last] of [
      ['0', '1'],
      ['2', '3'],
      ['4', '5'],
    ]) {
      expect(log.indexOf(`resolve ${last}`)).toBeGreaterThan(log.indexOf(`published ${chunk}`));
    }
    expect(log[log.length - 1]).toBe('commit');
  });

  it('a failed publish fails the batch without resolving its offset (the chunk is read again)', async () => {
    const log: string[] = [];
    const handler: CommandBatchHandler = {
      apply: async (raws) => raws.map(() => ({}) as IntakeOutcome),
      publish: async (raws) => {
        if (first(raws) === '2') throw new Error('broker away');
      },
    };
    await expect(serverWith(handler).eachBatch(batchOf(6, log))).rejects.toThrow('broker away');
    expect(log.filter((l) => l.startsWith('resolve'))).toEqual(['resolve 1']);
  });

  it('hands over the next chunk ahead (prefetch) while applying the current one', async () => {
    const log: string[] = [];
    const handler: CommandBatchHandler = {
      apply: async (raws) => {
        log.push(`apply ${first(raws)}`);
        // Two macrotask turns, not a 5 ms timer: on a loaded machine the timer could fire before
        // the server's setImmediate, while two turns always let an immediate queued now run first.
        await new Promise((r) => setImmediate(r));
        await new Promise((r) => setImmediate(r));
        return raws.map(() => ({}) as IntakeOutcome);
      },
      prefetch: (raws) => log.push(`prefetch ${first(raws)}`),
      publish: async () => undefined,
    };
    await serverWith(handler).eachBatch(batchOf(6, log));
    expect(log.filter((l) => l.startsWith('apply') || l.startsWith('prefetch'))).toEqual([
      'apply 0',
      'prefetch 2',
      'apply 2',
      'prefetch 4',
      'apply 4',
    ]);
  });
});

/** A kafkajs consumer as far as the server's lifecycle goes: its events, and what it was asked. */
function fakeConsumer() {
  const listeners = new Map<string, (event: unknown) => void>();
  const calls: string[] = [];
  const consumer = {
    events: { REBALANCING: 'rebalancing', GROUP_JOIN: 'group-join', CRASH: 'crash' },
    on: (name: string, listener: (event: unknown) => void) => listeners.set(name, listener),
    subscribe: async () => void calls.push('subscribe'),
    connect: async () => void calls.push('connect'),
    run: async () => void calls.push('run'),
  };
  const crash = (restart: boolean) =>
    listeners.get('crash')!({ payload: { error: new TypeError('x is undefined'), restart } });
  return { consumer, calls, crash };
}

describe('BatchingKafkaServer (a consumer kafkajs leaves stopped)', () => {
  const handler: CommandBatchHandler = { apply: async () => [], publish: async () => undefined };
  const serverOn = () => {
    const server = new BatchingKafkaServer({ client: { brokers: [] } }, 'commands', handler, 2);
    const stopped: Array<{ error: unknown; startAgain: () => Promise<void> }> = [];
    server.onConsumerStopped((error, startAgain) => stopped.push({ error, startAgain }));
    const lifecycle = server as unknown as {
      bindEvents(c: unknown): Promise<void>;
      close(): Promise<void>;
    };
    return { server: lifecycle, stopped };
  };

  it('hands it to its listener with how to start it again; leaves alone what kafkajs restarts', async () => {
    const { server, stopped } = serverOn();
    const { consumer, calls, crash } = fakeConsumer();
    await server.bindEvents(consumer);
    expect(calls).toEqual(['subscribe', 'run']);
    crash(true); // kafkajs restarts this one itself
    expect(stopped).toEqual([]);

    crash(false);
    expect(stopped).toHaveLength(1);
    expect(stopped[0].error).toEqual(new TypeError('x is undefined'));
    await stopped[0].startAgain();
    expect(calls).toEqual(['subscribe', 'run', 'connect', 'run']);
  });

  it('tells its handler the group is being joined before every run (nothing is read until then)', async () => {
    const { consumer, calls, crash } = fakeConsumer();
    const joining: CommandBatchHandler = {
      ...handler,
      rebalancing: () => void calls.push('rebalancing'),
    };
    const server = new BatchingKafkaServer({ client: { brokers: [] } }, 'commands', joining, 2);
    let startAgain: (() => Promise<void>) | undefined;
    server.onConsumerStopped((_error, again) => (startAgain = again));
    await (server as unknown as { bindEvents(c: unknown): Promise<void> }).bindEvents(consumer);
    expect(calls).toEqual(['subscribe', 'rebalancing', 'run']);
    crash(false);
    await startAgain!();
    expect(calls).toEqual(['subscribe', 'rebalancing', 'run', 'connect', 'rebalancing', 'run']);
  });

  it('not once the service is stopping', async () => {
    const { server, stopped } = serverOn();
    const { consumer, calls, crash } = fakeConsumer();
    await server.bindEvents(consumer);
    // ServerKafka's own close, with no client connected, has nothing to stop.
    await server.close();
    crash(false);
    expect(stopped).toEqual([]);
    expect(calls).toEqual(['subscribe', 'run']);
  });
});

describe('chunkSizeFor', () => {
  it('splits a batch in at least four chunks of at least 1,000, up to the configured size', () => {
    expect(chunkSizeFor(40_000, 5_000)).toBe(5_000);
    expect(chunkSizeFor(10_000, 5_000)).toBe(2_500);
    expect(chunkSizeFor(3_000, 5_000)).toBe(1_000);
    expect(chunkSizeFor(500, 5_000)).toBe(1_000);
    expect(chunkSizeFor(6, 2)).toBe(2);
  });
});
