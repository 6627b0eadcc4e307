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
        await new Promise((r) => setTimeout(r, 5));
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

describe('chunkSizeFor', () => {
  it('splits a batch in at least four chunks of at least 1,000, up to the configured size', () => {
    expect(chunkSizeFor(40_000, 5_000)).toBe(5_000);
    expect(chunkSizeFor(10_000, 5_000)).toBe(2_500);
    expect(chunkSizeFor(3_000, 5_000)).toBe(1_000);
    expect(chunkSizeFor(500, 5_000)).toBe(1_000);
    expect(chunkSizeFor(6, 2)).toBe(2);
  });
});
