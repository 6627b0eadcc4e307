import { Consumer, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ensureKafkaTopics } from '../../src/kafka/kafka-topics';
import { PlatformTopics } from '../../src/kafka/platform-topics';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { platformKafkaPlan } from '../../src/platforms-kafka/platform-kafka-plan';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import {
  postJson,
  signIn,
  startTestStudio,
  uniqueTopicPrefix,
  waitFor,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const TABLE = {
  id: 'ibj-plat',
  name: 'IBJ platforms',
  game: 'infinite-blackjack',
  currency: 'EUR',
  bettingWindowMs: 30_000,
  decisionWindowMs: 1_500,
  roundIntervalMs: 200,
  scanner: {
    wireFormat: 'studio-framed-v1',
    virtualShoe: { seed: 11, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
  },
} as unknown as TableDefinition;

interface Seen {
  topic: string;
  raw: string;
  value: Record<string, unknown>;
}

/**
 * Two platforms play one Infinite Blackjack round through their own topics: each gets the answers
 * to its own commands only, on its own results topic, and every message of the shared events
 * topic for the whole round names no player (no player id, no platform id).
 */
describe('per-platform Kafka topics (contract 2.0)', () => {
  const prefix = uniqueTopicPrefix('plat');
  const topics = new PlatformTopics(prefix);
  const kafka = new Kafka({
    clientId: 'platform-topics-test',
    brokers: [TEST_KAFKA_BROKERS],
    logLevel: logLevel.NOTHING,
  });
  const players = { a: ['pa-alice', 'pa-bob'], b: ['pb-carol', 'pb-dave', 'pb-erin'] };
  const seen: Seen[] = [];
  let db: TestDatabase;
  let studio: RunningStudio;
  let producer: Producer;
  let consumer: Consumer;

  beforeAll(async () => {
    // Set up as `npm run platform:kafka -- setup` would (this broker has no authorizer: no ACLs).
    const settings = { topicPrefix: prefix, commandPartitions: 2, eventPartitions: 2 };
    await ensureKafkaTopics(kafka, platformKafkaPlan('a', settings).topics);
    await ensureKafkaTopics(kafka, platformKafkaPlan('b', settings).topics);
    db = await createTestDatabase('kafka-platform-topics');
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: [TABLE],
      env: {
        KAFKA_COMMAND_PARTITIONS: '2',
        KAFKA_EVENT_PARTITIONS: '2',
        KAFKA_COMMAND_TOPIC_REFRESH_MS: '500',
        // The dealer closes betting once the bets are answered (below), and deals at a test's pace.
        DEMO_USERS: 'true',
        VIRTUAL_DEALER_PACE_MS: '20',
      },
    });
    // Registered as `npm run platform -- add` would: an unregistered platform's commands are refused.
    const registry = new PlatformsRepository(studio.database.dataSource);
    for (const id of ['a', 'b']) {
      await registry.add({ id, name: `Platform ${id}`, currencies: ['EUR'] }, new Date());
    }
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    consumer = kafka.consumer({ groupId: `${prefix}observer` });
    await Promise.all([producer.connect(), consumer.connect()]);
    await consumer.subscribe({
      topics: [
        topics.sharedEvents,
        topics.platformTopic('a', 'results'),
        topics.platformTopic('b', 'results'),
        topics.platformTopic('a', 'dead-letters'),
        topics.platformTopic('b', 'dead-letters'),
        topics.v1DeadLetters,
      ],
      fromBeginning: true,
    });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const raw = message.value?.toString('utf8') ?? '';
        let value: Record<string, unknown> = {};
        try {
          value = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // A dead letter's bytes are what was sent, JSON or not.
        }
        seen.push({ topic, raw, value });
      },
    });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await studio?.close();
    await db?.drop();
  });

  it('answers each platform on its own topic and keeps every player off the shared topic', async () => {
    const opened = await waitFor(
      'betting to open (on the shared topic)',
      async () =>
        seen.find((m) => m.topic === topics.sharedEvents && m.value.type === 'BettingOpened'),
      120_000,
    );
    const roundId = opened.value.roundId as string;
    for (const platform of ['a', 'b'] as const) {
      await producer.send({
        topic: topics.commandsTopic(platform),
        acks: -1,
        messages: players[platform].map((playerId) => ({
          key: TABLE.id,
          value: JSON.stringify({
            commandId: `bet-${playerId}`,
            type: 'PlaceBet',
            schemaVersion: 1,
            tableId: TABLE.id,
            roundId,
            playerId,
            betType: 'main',
            amount: 1_000,
          }),
        })),
      });
    }
    const answersOn = (platform: 'a' | 'b') =>
      seen.filter((m) => m.topic === topics.platformTopic(platform, 'results'));
    await waitFor('both platforms answered', async () =>
      answersOn('a').length >= 2 && answersOn('b').length >= 3 ? true : undefined,
    );
    expect(answersOn('a').map((m) => [m.value.playerId, m.value.status])).toEqual(
      players.a.map((p) => [p, 'accepted']),
    );
    expect(
      answersOn('b')
        .map((m) => [m.value.playerId, m.value.status])
        .sort(),
    ).toEqual(players.b.map((p) => [p, 'accepted']).sort());
    // Every bet is in: the dealer closes betting rather than the test waiting out the window.
    const dealer = await signIn(studio.url, 'dealer', 'dealer-demo');
    const closed = await postJson(
      studio.url,
      `/tables/${TABLE.id}/close-betting`,
      {},
      {
        authorization: `Bearer ${dealer}`,
      },
    );
    expect(closed.status).toBe(200);
    const shared = () =>
      seen.filter((m) => m.topic === topics.sharedEvents && m.value.roundId === roundId);
    await waitFor(
      'the round to end (on the shared topic)',
      async () =>
        shared().some((m) => m.value.type === 'RoundEnded' || m.value.type === 'RoundCompleted')
          ? true
          : undefined,
      120_000,
    );
    const round = shared();
    // The round was played with their bets: the shared topic says how many, not whose.
    expect(round.map((m) => m.value.type)).toEqual(expect.arrayContaining(['BettingClosed']));
    const everyPlayer = [...players.a, ...players.b];
    const naming = round.filter(
      (m) =>
        m.raw.includes('"playerId"') ||
        m.raw.includes('"platformId"') ||
        everyPlayer.some((p) => m.raw.includes(p)),
    );
    expect(naming.map((m) => m.raw)).toEqual([]);
    expect(round.length).toBeGreaterThan(10);
  });

  it('reads a platform set up while the service runs, without a restart', async () => {
    const settings = { topicPrefix: prefix, commandPartitions: 2, eventPartitions: 2 };
    await ensureKafkaTopics(kafka, platformKafkaPlan('c', settings).topics);
    const results = topics.platformTopic('c', 'results');
    const late = kafka.consumer({ groupId: `${prefix}observer-c` });
    await late.connect();
    const answers: Array<Record<string, unknown>> = [];
    try {
      await late.subscribe({ topics: [results], fromBeginning: true });
      await late.run({
        eachMessage: async ({ message }) => {
          answers.push(JSON.parse(message.value!.toString('utf8')) as Record<string, unknown>);
        },
      });
      // Sent at once: read from the beginning once the intake has picked the topic up.
      await producer.send({
        topic: topics.commandsTopic('c'),
        acks: -1,
        messages: [
          {
            key: TABLE.id,
            value: JSON.stringify({
              commandId: 'late-1',
              type: 'PlaceBet',
              schemaVersion: 1,
              tableId: TABLE.id,
              playerId: 'pc-frank',
              betType: 'main',
              amount: 1_000,
            }),
          },
        ],
      });
      const answer = await waitFor(
        "the answer on the new platform's results topic",
        async () => answers.find((a) => a.commandId === 'late-1'),
        60_000,
      );
      // Accepted or refused by the round's state: answered at all is what is asked here.
      expect(answer).toEqual(expect.objectContaining({ playerId: 'pc-frank', tableId: TABLE.id }));
    } finally {
      await late.disconnect();
    }
  });
  it("parks a platform's unreadable command on its own dead-letter topic, which no other platform reads", async () => {
    const broken = '{"commandId": "b-broken", "type": "PlaceBet", "playerId": "pb-carol",';
    await producer.send({
      topic: topics.commandsTopic('b'),
      acks: -1,
      messages: [{ key: TABLE.id, value: broken }],
    });
    await waitFor("the dead letter on b's own topic", async () =>
      seen.find((m) => m.topic === topics.platformTopic('b', 'dead-letters') && m.raw === broken),
    );
    // Nothing of it on the v1 dead-letter topic (the default platform's) or on a's.
    expect(seen.filter((m) => m.raw === broken).map((m) => m.topic)).toEqual([
      topics.platformTopic('b', 'dead-letters'),
    ]);
  });
});
