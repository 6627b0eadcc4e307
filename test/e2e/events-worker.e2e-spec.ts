import { Kafka, logLevel } from 'kafkajs';
import { resolve } from 'node:path';
import { loadStudioConfig } from '../../src/config/studio-config';
import type { Worker } from 'node:worker_threads';
import type { WorkerEventPublisher as Publisher } from '../../src/kafka/events-worker';
import { startWorker } from '../../src/kafka/worker-link';
import type { OutgoingMessage } from '../../src/outbox/event-publisher';
import { REPO_ROOT, TEST_KAFKA_BROKERS } from '../support/environment';
import { uniqueTopicPrefix, waitFor } from '../support/studio-harness';

jest.setTimeout(120_000);

/**
 * The relay's producer in a worker thread, against the real broker: the same guarantees as on the
 * service's thread (order, acknowledgement, nothing sent past a failure until connect()), also when
 * the worker itself dies with publishes in hand.
 */
describe('events published from a worker thread', () => {
  const kafka = new Kafka({ brokers: [TEST_KAFKA_BROKERS], logLevel: logLevel.NOTHING });
  const prefix = uniqueTopicPrefix('events-worker');
  const topic = `${prefix}table-events`;
  const config = loadStudioConfig({
    KAFKA_BROKERS: TEST_KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: prefix,
  }).kafka!;
  let publisher: Publisher;
  // The worker loads its own compiled file, so the class comes from dist (npm test builds).
  let WorkerEventPublisher: typeof Publisher;

  beforeAll(async () => {
    ({ WorkerEventPublisher } = (await import(
      resolve(REPO_ROOT, 'dist/src/kafka/events-worker.js')
    )) as { WorkerEventPublisher: typeof Publisher });
  });

  const batch = (from: number, count: number): OutgoingMessage[] =>
    Array.from({ length: count }, (_, i) => ({
      key: 't1',
      value: JSON.stringify({ n: from + i }),
      headers: { 'event-id': `e-${from + i}` },
    }));

  async function readAll(expected: number): Promise<number[]> {
    const consumer = kafka.consumer({ groupId: `${prefix}reader-${Date.now()}` });
    const seen: number[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.push((JSON.parse(message.value!.toString()) as { n: number }).n);
        },
      });
      await waitFor('the published events', async () => seen.length >= expected, 60_000);
      return seen;
    } finally {
      await consumer.disconnect();
    }
  }

  beforeEach(() => {
    publisher = new WorkerEventPublisher(config);
  });

  afterEach(async () => {
    await publisher.disconnect();
  });

  it('publishes in the order asked, each resolving once acknowledged', async () => {
    expect(WorkerEventPublisher.available).toBe(true);
    await publisher.connect([topic]);
    expect(publisher.status()).toEqual({ enabled: true, connected: true, lastError: undefined });
    // Asked for one after the other without waiting: they reach the broker in that order.
    await Promise.all([0, 100, 200, 300].map((from) => publisher.publish(topic, batch(from, 100))));
    expect(await readAll(400)).toEqual(Array.from({ length: 400 }, (_, i) => i));
  });

  it('refuses publishes after the worker died until connect(), then publishes again', async () => {
    // The worker thread as production starts it, held here to end it as a crash would.
    let worker: Worker | undefined;
    const dying = new WorkerEventPublisher(config, (file, data) => {
      worker = startWorker(file, data);
      return worker;
    });
    publisher = dying;
    await publisher.connect([topic]);
    const inHand = publisher.publish(topic, batch(1_000, 50));
    await worker!.terminate();
    await expect(inHand).rejects.toThrow(/events worker exited/);
    expect(publisher.status()).toMatchObject({ connected: false });
    await expect(publisher.publish(topic, batch(2_000, 1))).rejects.toThrow(
      /Not sent: an earlier send failed/,
    );
    await publisher.connect([topic]);
    await publisher.publish(topic, batch(3_000, 1));
    expect(publisher.status()).toMatchObject({ connected: true });
  });

  it('reports a broker it cannot reach as a failed connect, with the reason in its status', async () => {
    const unreachable = new WorkerEventPublisher({
      ...config,
      brokers: ['127.0.0.1:1'],
    });
    try {
      await expect(unreachable.connect([topic])).rejects.toThrow();
      expect(unreachable.status()).toMatchObject({
        connected: false,
        lastError: expect.any(String),
      });
    } finally {
      await unreachable.disconnect();
    }
  });
});
