import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Consumer, Kafka, KafkaConfig, logLevel, Partitioners, Producer } from 'kafkajs';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { PlatformTopics } from '../../src/kafka/platform-topics';
import { platformKafkaPlan } from '../../src/platforms-kafka/platform-kafka-plan';
import { applyPlatformKafkaPlan } from '../../src/platforms-kafka/platform-kafka-setup';
import { REPO_ROOT } from '../support/environment';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { startTestStudio, uniqueTopicPrefix, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { settleWithin } from '../../src/common/settle-within';

jest.setTimeout(400_000);

const run = promisify(execFile);
const USERS = { studio: 'studio-secret', 'platform-a': 'a-secret', 'platform-b': 'b-secret' };

/** A port P with P+1 free too (the broker's controller listens on P+1). */
async function freePortPair(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((ok) => {
      const s = createServer().once('error', () => ok(false));
      s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
    });
  for (;;) {
    const port = await new Promise<number>((ok) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => ok(p));
      });
    });
    if (port < 65535 && (await free(port + 1))) return port;
  }
}

/** scripts/kafka.sh in its SASL/SCRAM + StandardAuthorizer mode: a broker of this test's own. */
async function broker(command: 'start' | 'stop', port: number, home: string): Promise<void> {
  await run('bash', [resolve(REPO_ROOT, 'scripts/kafka.sh'), command], {
    env: {
      ...process.env,
      KAFKA_PORT: String(port),
      KAFKA_HOME_DIR: home,
      KAFKA_SASL: '1',
      KAFKA_SCRAM_USERS: Object.entries(USERS)
        .map(([user, password]) => `${user}:${password}`)
        .join(','),
      KAFKA_SUPER_USERS: 'User:studio',
      KAFKA_START_TIMEOUT: '240',
    },
    timeout: 300_000,
  });
}

const TABLE = {
  id: 'ibj-acl',
  name: 'IBJ ACL',
  game: 'infinite-blackjack',
  currency: 'EUR',
  bettingWindowMs: 600_000,
  decisionWindowMs: 600_000,
  roundIntervalMs: 0,
  scanner: {
    wireFormat: 'studio-framed-v1',
    virtualShoe: { seed: 7, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
  },
} as unknown as TableDefinition;

/**
 * Platforms are kept apart by the broker itself: a SASL/SCRAM broker with the KRaft
 * StandardAuthorizer, two platforms set up by the set-up command's code (topics and ACLs through
 * the admin API, as the studio's principal), and each platform's principal trying the other's
 * topics. What is asserted is the broker's refusal, not anything the service checks. The service
 * runs through the studio's principal and answers platform A's command on A's results topic.
 */
describe('Kafka ACLs per platform (SASL/SCRAM, StandardAuthorizer)', () => {
  const prefix = uniqueTopicPrefix('acl');
  const topics = new PlatformTopics(prefix);
  let port: number;
  let home: string;
  let brokers: string;
  const clients: Array<{ disconnect(): Promise<void> }> = [];
  let db: TestDatabase | undefined;
  let studio: RunningStudio | undefined;

  const kafkaAs = (user: keyof typeof USERS, extra: Partial<KafkaConfig> = {}) =>
    new Kafka({
      clientId: `acl-${user}`,
      brokers: [brokers],
      sasl: { mechanism: 'scram-sha-256', username: user, password: USERS[user] },
      logLevel: logLevel.NOTHING,
      ...extra,
    });
  const producerOf = async (kafka: Kafka): Promise<Producer> => {
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    clients.push(producer);
    return producer;
  };
  const consumerOf = async (kafka: Kafka, groupId: string): Promise<Consumer> => {
    // A refused consumer is not restarted: it would retry until disconnected.
    const consumer = kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      retry: { retries: 2, restartOnFailure: async () => false },
    });
    await consumer.connect();
    clients.push(consumer);
    return consumer;
  };
  /** The broker's error type (kafkajs keeps the protocol's name in `type`). */
  const refusal = async (work: Promise<unknown>): Promise<string> => {
    try {
      await work;
    } catch (error) {
      const e = error as { type?: string; cause?: { type?: string }; message: string };
      return e.type ?? e.cause?.type ?? e.message;
    }
    return 'allowed';
  };

  beforeAll(async () => {
    port = await freePortPair();
    home = resolve(REPO_ROOT, '.tmp', `kafka-acl-${port}`);
    brokers = `127.0.0.1:${port}`;
    rmSync(home, { recursive: true, force: true });
    await broker('start', port, home);
    const settings = { topicPrefix: prefix, commandPartitions: 2, eventPartitions: 2 };
    const studioKafka = kafkaAs('studio');
    for (const id of ['a', 'b']) {
      await applyPlatformKafkaPlan(studioKafka, platformKafkaPlan(id, settings));
    }
  });

  afterAll(async () => {
    const bounded = (work: Promise<unknown>) =>
      settleWithin(
        work.catch(() => undefined),
        10_000,
        undefined,
      );
    for (const c of clients) await bounded(c.disconnect());
    await studio?.close();
    await db?.drop();
    if (port) await broker('stop', port, home).catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  });

  it("refuses platform A's principal B's commands topic, and lets it write its own", async () => {
    const producer = await producerOf(kafkaAs('platform-a'));
    const send = (topic: string) =>
      producer.send({ topic, acks: -1, messages: [{ key: 'ibj-acl', value: '{}' }] });
    expect(await refusal(send(topics.commandsTopic('a')))).toBe('allowed');
    expect(await refusal(send(topics.commandsTopic('b')))).toBe('TOPIC_AUTHORIZATION_FAILED');
    // Nor its own results or events topics, nor the shared one: only the studio writes those.
    expect(await refusal(send(topics.platformTopic('a', 'results')))).toBe(
      'TOPIC_AUTHORIZATION_FAILED',
    );
    expect(await refusal(send(topics.sharedEvents))).toBe('TOPIC_AUTHORIZATION_FAILED');
  });

  it("refuses platform A's principal B's results and events topics and B's consumer groups", async () => {
    const a = kafkaAs('platform-a');
    for (const kind of ['results', 'events', 'commands'] as const) {
      const consumer = await consumerOf(a, `a.read-b-${kind}`);
      expect(
        await refusal(
          consumer.subscribe({ topics: [topics.platformTopic('b', kind)], fromBeginning: true }),
        ),
      ).toBe('TOPIC_AUTHORIZATION_FAILED');
    }
    // The offsets of B's topics are refused too (a look without a consumer group).
    const admin = a.admin();
    await admin.connect();
    clients.push(admin);
    expect(await refusal(admin.fetchTopicOffsets(topics.platformTopic('b', 'events')))).toBe(
      'TOPIC_AUTHORIZATION_FAILED',
    );
    // A consumer group not named after the platform is refused, even on A's own topic. kafkajs
    // reports it as "Failed to find group coordinator": the broker's own code is in its log.
    const brokerErrors: string[] = [];
    const logged = kafkaAs('platform-a', {
      logLevel: logLevel.DEBUG,
      logCreator:
        () =>
        ({ log }) => {
          const type = (log as { error?: { type?: string } }).error?.type;
          if (type) brokerErrors.push(type);
        },
    });
    const outside = await consumerOf(logged, 'b.pretending');
    await outside.subscribe({ topics: [topics.platformTopic('a', 'results')] });
    await outside.run({ eachMessage: async () => undefined }).catch(() => undefined);
    await waitFor('the broker to refuse the group', async () =>
      brokerErrors.includes('GROUP_AUTHORIZATION_FAILED') ? true : undefined,
    );
    await settleWithin(
      outside.stop().catch(() => undefined),
      5_000,
      undefined,
    );
    // While A's own group reads A's own results topic.
    const own = await consumerOf(a, 'a.own');
    expect(await refusal(own.subscribe({ topics: [topics.platformTopic('a', 'results')] }))).toBe(
      'allowed',
    );
  });

  it("serves platform A through the studio's principal: its command answered on its results topic", async () => {
    db = await createTestDatabase('kafka-acls');
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: brokers,
      topicPrefix: prefix,
      tables: [TABLE],
      env: {
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'studio',
        KAFKA_SASL_PASSWORD: USERS.studio,
        KAFKA_COMMAND_PARTITIONS: '2',
        KAFKA_EVENT_PARTITIONS: '2',
        VIRTUAL_DEALER_PACE_MS: '0',
      },
    });
    // Registered as `npm run platform -- add` would: an unregistered platform's commands are refused.
    await new PlatformsRepository(studio.database.dataSource).add(
      { id: 'a', name: 'Platform a', currencies: ['EUR'] },
      new Date(),
    );
    const a = kafkaAs('platform-a');
    const seen: Array<{ topic: string; value: Record<string, unknown> }> = [];
    const consumer = await consumerOf(a, 'a.e2e');
    await consumer.subscribe({
      topics: [topics.sharedEvents, topics.platformTopic('a', 'results')],
      fromBeginning: true,
    });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        seen.push({ topic, value: JSON.parse(message.value!.toString('utf8')) });
      },
    });
    const opened = await waitFor(
      'BettingOpened on the shared topic, read by platform A',
      async () =>
        seen.find((m) => m.topic === topics.sharedEvents && m.value.type === 'BettingOpened'),
      120_000,
    );
    const producer = await producerOf(a);
    await producer.send({
      topic: topics.commandsTopic('a'),
      acks: -1,
      messages: [
        {
          key: 'ibj-acl',
          value: JSON.stringify({
            commandId: 'acl-bet-1',
            type: 'PlaceBet',
            schemaVersion: 1,
            tableId: 'ibj-acl',
            roundId: opened.value.roundId,
            playerId: 'a-player-1',
            betType: 'main',
            amount: 1_000,
          }),
        },
      ],
    });
    const answer = await waitFor(
      "the answer on platform A's results topic",
      async () => seen.find((m) => m.topic === topics.platformTopic('a', 'results')),
      60_000,
    );
    expect(answer.value).toEqual(
      expect.objectContaining({
        commandId: 'acl-bet-1',
        playerId: 'a-player-1',
        status: 'accepted',
      }),
    );
  });
});
