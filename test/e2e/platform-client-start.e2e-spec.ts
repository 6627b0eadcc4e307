import { CommandResultMessage } from '@studio/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import { ensureKafkaTopics } from '../../src/kafka/kafka-topics';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { uniqueTopicPrefix, waitFor } from '../support/studio-harness';

jest.setTimeout(120_000);

/**
 * A platform started beside the studio meets topics that do not exist yet, or that a restarted
 * broker does not host yet ("This server does not host this topic-partition"). The client waits
 * for them, within a bound, instead of failing its start on the first answer.
 */
describe('platform client start', () => {
  const kafka = new Kafka({ brokers: [TEST_KAFKA_BROKERS], logLevel: logLevel.NOTHING });

  it('waits for topics created after it starts, then reads them', async () => {
    const prefix = uniqueTopicPrefix('late-topics');
    const client = new PlatformKafkaClient({ brokers: [TEST_KAFKA_BROKERS], topicPrefix: prefix });
    const producer = kafka.producer();
    try {
      const starting = client.start();
      await new Promise((r) => setTimeout(r, 1_500));
      await ensureKafkaTopics(kafka, [
        { topic: client.topics.events, numPartitions: 1 },
        { topic: client.topics.results, numPartitions: 1 },
        { topic: client.topics.commands, numPartitions: 1 },
      ]);
      await starting;

      await producer.connect();
      const answer = { commandId: 'late-1', status: 'accepted' } as CommandResultMessage;
      await producer.send({
        topic: client.topics.results,
        messages: [{ key: 't', value: JSON.stringify(answer) }],
      });
      const read = await waitFor(
        'the answer to be read',
        async () => client.results.find((r) => r.commandId === 'late-1'),
        60_000,
      );
      expect(read.status).toBe('accepted');
    } finally {
      await producer.disconnect();
      await client.stop();
    }
  });

  it('gives up after its bound with an error that names the topics and the prefix', async () => {
    const prefix = uniqueTopicPrefix('no-topics');
    const client = new PlatformKafkaClient({
      brokers: [TEST_KAFKA_BROKERS],
      topicPrefix: prefix,
      topicWaitMs: 1_000,
    });
    await expect(client.start()).rejects.toThrow(
      new RegExp(`${client.topics.events}.*not hosted.*topic prefix '${prefix}'`),
    );
  });
});
