import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { KafkaCommandBacklog } from '../../src/platform/kafka-command-backlog';
import { uniqueTopicPrefix } from '../support/studio-harness';
import { TEST_KAFKA_BROKERS } from '../support/environment';

jest.setTimeout(120_000);

/**
 * What a command window waits for after a join (CommandCatchUp), asked of a real broker: the
 * partitions' ends as of a moment, and whether the group's committed offsets have passed them.
 */
describe('KafkaCommandBacklog (the command group’s progress, from a real broker)', () => {
  const prefix = uniqueTopicPrefix('backlog');
  const topics = [`${prefix}commands.a`, `${prefix}commands.b`];
  const groupId = `${prefix}group`;
  const kafka = new Kafka({ brokers: [TEST_KAFKA_BROKERS], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const backlog = new KafkaCommandBacklog(
    () => kafka,
    () => groupId,
    () => topics,
  );

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({
      topics: topics.map((topic) => ({ topic, numPartitions: 2 })),
      waitForLeaders: true,
    });
    await producer.connect();
  });

  afterAll(async () => {
    await backlog.close();
    await producer.disconnect();
    await admin.deleteTopics({ topics }).catch(() => undefined);
    await admin.disconnect();
  });

  const commit = (topic: string, partition: number, offset: string) =>
    admin.setOffsets({ groupId, topic, partitions: [{ partition, offset }] });

  it('says the group is behind until it has committed past the ends taken, not past later ones', async () => {
    // Empty partitions and no commits: nothing to wait for.
    const empty = await backlog.ends();
    expect([...empty.keys()].sort()).toEqual(topics.flatMap((t) => [`${t}:0`, `${t}:1`]).sort());
    expect(await backlog.consumedTo(empty)).toBe(true);

    await producer.send({
      topic: topics[0],
      messages: [0, 1, 2].map((i) => ({ value: `bet ${i}`, partition: 0 })),
    });
    await producer.send({ topic: topics[1], messages: [{ value: 'bet', partition: 1 }] });
    // Answers are shared for 100 ms between tables asking at once: asked past that.
    const settle = () => new Promise((r) => setTimeout(r, 150));
    await settle();
    const ends = await backlog.ends();
    expect(ends.get(`${topics[0]}:0`)).toEqual({ start: 0n, end: 3n });
    expect(ends.get(`${topics[1]}:1`)).toEqual({ start: 0n, end: 1n });
    await settle();
    expect(await backlog.consumedTo(ends)).toBe(false);

    await commit(topics[0], 0, '3');
    await settle();
    expect(await backlog.consumedTo(ends)).toBe(false); // topic b's partition 1 still unread

    // Sent after the ends were taken: not waited for.
    await producer.send({ topic: topics[1], messages: [{ value: 'late', partition: 1 }] });
    await commit(topics[1], 1, '1');
    await settle();
    expect(await backlog.consumedTo(ends)).toBe(true);
    await settle();
    expect(await backlog.consumedTo(await backlog.ends())).toBe(false);
  });

  it('fails, rather than answers, once closed (the window then closes as it would have)', async () => {
    const closed = new KafkaCommandBacklog(
      () => kafka,
      () => groupId,
      () => topics,
    );
    await closed.close();
    await expect(closed.ends()).rejects.toThrow('the command consumer is closed');
  });
});
