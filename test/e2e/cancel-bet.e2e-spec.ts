import { Consumer, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { HoldStatisticsReader } from '../../src/history/hold-statistics.reader';
import { ensureKafkaTopics } from '../../src/kafka/kafka-topics';
import { PlatformTopics } from '../../src/kafka/platform-topics';
import { runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { platformKafkaPlan } from '../../src/platforms-kafka/platform-kafka-plan';
import { recordForConformance } from '../support/conformance-recorder';
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
  id: 'ibj-cancel',
  name: 'IBJ cancellations',
  game: 'infinite-blackjack',
  currency: 'EUR',
  // Closed by the dealer's button in the test, long before this.
  bettingWindowMs: 120_000,
  decisionWindowMs: 1_500,
  roundIntervalMs: 200,
  scanner: {
    wireFormat: 'studio-framed-v1',
    virtualShoe: { seed: 23, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
  },
} as unknown as TableDefinition;

const A = 'casino-a';
const B = 'casino-b';

interface Seen {
  topic: string;
  value: Record<string, unknown>;
}

/**
 * CancelBet (docs/wallet-model.md): a platform takes back its own player's bet while betting is
 * open, over HTTP and over Kafka, idempotently by command id; another platform's cancel of that
 * bet is answered as an unknown bet and changes nothing; after betting closed the bet stands. The
 * cancellation is announced on the owner's private topic only, shown in the auditors' timeline,
 * and left out of the round's settlement and of the platform's report (counted as cancelled).
 */
describe('CancelBet over HTTP and Kafka', () => {
  const prefix = uniqueTopicPrefix('cancel');
  const topics = new PlatformTopics(prefix);
  const kafka = new Kafka({
    clientId: 'cancel-bet-test',
    brokers: [TEST_KAFKA_BROKERS],
    logLevel: logLevel.NOTHING,
  });
  const seen: Seen[] = [];
  let db: TestDatabase;
  let studio: RunningStudio;
  let producer: Producer;
  let consumer: Consumer;
  const keys: Record<string, string> = {};
  let supervisorToken: string;
  let roundId: string;
  let aliceBetId: string;
  let carolBetId = '';

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);
  const post = (path: string, body: unknown, platform: string) =>
    postJson(studio.url, `/platform/tables/${TABLE.id}/${path}`, body, {
      'x-platform-key': keys[platform],
    });
  const get = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(`${studio.url}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const on = (topic: string) => seen.filter((m) => m.topic === topic);
  const answerTo = (platform: string, commandId: string, nth = 1) =>
    waitFor(`the answer to ${commandId}`, async () => {
      const answers = on(topics.platformTopic(platform, 'results')).filter(
        (m) => m.value.commandId === commandId,
      );
      return answers.length >= nth ? answers[nth - 1].value : undefined;
    });
  const send = async (platform: string, command: Record<string, unknown>) => {
    const message = { schemaVersion: 1, tableId: TABLE.id, ...command };
    recordForConformance('command', 'cancel-bet', [message]);
    await producer.send({
      topic: topics.commandsTopic(platform),
      acks: -1,
      messages: [{ key: TABLE.id, value: JSON.stringify(message) }],
    });
  };

  beforeAll(async () => {
    const settings = { topicPrefix: prefix, commandPartitions: 1, eventPartitions: 1 };
    await ensureKafkaTopics(kafka, platformKafkaPlan(A, settings).topics);
    await ensureKafkaTopics(kafka, platformKafkaPlan(B, settings).topics);
    db = await createTestDatabase('cancel-bet');
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: [TABLE],
      env: {
        DEMO_USERS: 'true',
        VIRTUAL_DEALER_PACE_MS: '40',
        KAFKA_COMMAND_PARTITIONS: '1',
        KAFKA_EVENT_PARTITIONS: '1',
        KAFKA_COMMAND_TOPIC_REFRESH_MS: '500',
      },
    });
    const deps = {
      repository: new PlatformsRepository(studio.database.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    };
    for (const platform of [A, B]) {
      await runPlatformAdmin(['add', platform, 'EUR', platform], deps);
      keys[platform] = (await runPlatformAdmin(['key:create', platform], deps)).split('\n')[1];
    }
    supervisorToken = await signIn(studio.url, 'supervisor', 'supervisor-demo');
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    consumer = kafka.consumer({ groupId: `${prefix}observer` });
    await Promise.all([producer.connect(), consumer.connect()]);
    await consumer.subscribe({
      topics: [
        topics.sharedEvents,
        ...[A, B].flatMap((p) => [topics.platformTopic(p, 'results'), topics.eventsTopic(p)]),
      ],
      fromBeginning: true,
    });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const value = JSON.parse(message.value!.toString('utf8')) as Record<string, unknown>;
        seen.push({ topic, value });
        if (topic.endsWith('.results.v2')) recordForConformance('answer', 'cancel-bet', [value]);
      },
    });
    const round = await waitFor(
      'betting to open',
      async () => {
        const view = await get(`/tables/${TABLE.id}`, {
          authorization: `Bearer ${supervisorToken}`,
        });
        const r = view.body.round as { id: string; bettingOpen: boolean } | null;
        return r?.bettingOpen ? r : undefined;
      },
      120_000,
    );
    roundId = round.id;
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await studio?.close();
    await db?.drop();
  });

  it('cancels over HTTP, answers a repeat with the first answer, refuses another platform', async () => {
    const bet = await post(
      'bets',
      {
        commandId: 'a-bet-alice',
        playerId: 'alice',
        betType: 'main',
        amount: 1_000,
        sideBets: { pairs: 500 },
      },
      A,
    );
    expect(bet).toMatchObject({ status: 200, body: { accepted: true } });
    aliceBetId = (bet.body.reply as { betId: string }).betId;

    // casino-b names casino-a's bet (and its player): exactly an unknown bet, nothing changes.
    const stranger = await post(
      `bets/${encodeURIComponent(aliceBetId)}/cancel`,
      { commandId: 'b-cancel-1', playerId: 'alice' },
      B,
    );
    expect(stranger).toEqual({
      status: 404,
      body: { error: 'unknown-bet', message: expect.any(String) },
    });
    const nothing = await post(
      `bets/no-such-bet/cancel`,
      { commandId: 'b-cancel-2', playerId: 'alice' },
      B,
    );
    expect(nothing.status).toBe(404);
    expect(nothing.body.error).toBe(stranger.body.error);
    expect(
      await q(`SELECT status FROM bets WHERE round_id = $1 AND player_id = 'casino-a:alice'`, [
        roundId,
      ]),
    ).toEqual([{ status: 'accepted' }, { status: 'accepted' }]);

    const cancel = await post(
      `bets/${encodeURIComponent(aliceBetId)}/cancel`,
      { commandId: 'a-cancel-1', playerId: 'alice' },
      A,
    );
    expect(cancel).toEqual({
      status: 200,
      body: { accepted: true, reply: { betId: aliceBetId, roundId, cancelled: true } },
    });
    const repeat = await post(
      `bets/${encodeURIComponent(aliceBetId)}/cancel`,
      { commandId: 'a-cancel-1', playerId: 'alice' },
      A,
    );
    expect(repeat.body).toEqual({ ...cancel.body, duplicate: true });
    // The same command id for another bet is refused, as for every command.
    const reused = await post(
      `bets/other-bet/cancel`,
      { commandId: 'a-cancel-1', playerId: 'alice' },
      A,
    );
    expect(reused).toMatchObject({ status: 409, body: { error: 'command-id-reused' } });
    // A new cancellation of the same bet: already cancelled.
    const again = await post(
      `bets/${encodeURIComponent(aliceBetId)}/cancel`,
      { commandId: 'a-cancel-2', playerId: 'alice' },
      A,
    );
    expect(again).toMatchObject({ status: 409, body: { error: 'bet-already-cancelled' } });
    expect(
      await q(
        `SELECT bet_type, status FROM bets WHERE round_id = $1 AND player_id = 'casino-a:alice' ORDER BY bet_type`,
        [roundId],
      ),
    ).toEqual([
      { bet_type: 'main', status: 'cancelled' },
      { bet_type: 'pairs', status: 'cancelled' },
    ]);
  });

  it("cancels over Kafka by the PlaceBet's command id; another platform's CancelBet is unknown-bet", async () => {
    await send(A, {
      commandId: 'k-bet-bob',
      type: 'PlaceBet',
      playerId: 'bob',
      betType: 'main',
      amount: 2_000,
    });
    const placed = await answerTo(A, 'k-bet-bob');
    expect(placed).toMatchObject({ status: 'accepted' });
    await send(B, {
      commandId: 'k-b-cancel',
      type: 'CancelBet',
      playerId: 'bob',
      betCommandId: 'k-bet-bob',
    });
    expect(await answerTo(B, 'k-b-cancel')).toMatchObject({
      status: 'rejected',
      code: 'unknown-bet',
    });
    await send(A, {
      commandId: 'k-cancel-bob',
      type: 'CancelBet',
      playerId: 'bob',
      betCommandId: 'k-bet-bob',
    });
    const answer = await answerTo(A, 'k-cancel-bob');
    expect(answer).toMatchObject({
      commandType: 'CancelBet',
      playerId: 'bob',
      status: 'accepted',
      duplicate: false,
      // The bet's betId (as its answer and its BetCancelled name it), not the command id.
      reply: { roundId, cancelled: true, betId: (placed.reply as { betId: string }).betId },
    });
    await send(A, {
      commandId: 'k-cancel-bob',
      type: 'CancelBet',
      playerId: 'bob',
      betCommandId: 'k-bet-bob',
    });
    expect(await answerTo(A, 'k-cancel-bob', 2)).toMatchObject({
      status: 'accepted',
      duplicate: true,
    });
    // No answer of casino-a's commands reached casino-b's results topic, nor the reverse.
    expect(on(topics.platformTopic(B, 'results')).map((m) => m.value.commandId)).toEqual([
      'k-b-cancel',
    ]);
  });

  it('refuses a cancellation once betting has closed: the bet stands', async () => {
    const carol = await post(
      'bets',
      { commandId: 'a-bet-carol', playerId: 'carol', betType: 'main', amount: 3_000 },
      A,
    );
    expect(carol.status).toBe(200);
    carolBetId = (carol.body.reply as { betId: string }).betId;
    const closed = await postJson(
      studio.url,
      `/tables/${TABLE.id}/close-betting`,
      {},
      {
        authorization: `Bearer ${supervisorToken}`,
      },
    );
    expect(closed.status).toBe(200);
    const late = await post(
      `bets/${encodeURIComponent(carolBetId)}/cancel`,
      { commandId: 'a-cancel-carol', playerId: 'carol' },
      A,
    );
    expect(late).toMatchObject({ status: 409, body: { error: 'betting-closed' } });
    await send(A, {
      commandId: 'k-cancel-carol',
      type: 'CancelBet',
      playerId: 'carol',
      betId: carolBetId,
    });
    expect(await answerTo(A, 'k-cancel-carol')).toMatchObject({
      status: 'rejected',
      code: 'betting-closed',
    });
    // A repeat after the close still gets the first answer.
    const repeat = await post(
      `bets/${encodeURIComponent(aliceBetId)}/cancel`,
      { commandId: 'a-cancel-1', playerId: 'alice' },
      A,
    );
    expect(repeat.body).toMatchObject({ accepted: true, duplicate: true });
  });

  it("announces it on the owner's private topic only, shows it in the timeline, settles without it", async () => {
    await waitFor(
      'the round to complete',
      async () => {
        const [r] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [
          roundId,
        ]);
        return r?.status === 'completed' ? true : undefined;
      },
      120_000,
    );
    const ofRound = (topic: string) => on(topic).filter((m) => m.value.roundId === roundId);
    await waitFor('the settlement on the private topic', async () =>
      ofRound(topics.eventsTopic(A)).some((m) => m.value.type === 'BetsSettled') ? true : undefined,
    );
    const privateA = ofRound(topics.eventsTopic(A));
    const cancelled = privateA.filter((m) => m.value.type === 'BetCancelled');
    expect(cancelled.map((m) => m.value.payload)).toEqual([
      {
        betId: aliceBetId,
        betCommandId: 'a-bet-alice',
        playerId: 'alice',
        platformId: A,
        betType: 'main',
        parts: [
          { betType: 'main', amount: 1_000 },
          { betType: 'pairs', amount: 500 },
        ],
        returned: 1_500,
        currency: 'EUR',
      },
      expect.objectContaining({ betCommandId: 'k-bet-bob', playerId: 'bob', returned: 2_000 }),
    ]);
    expect(ofRound(topics.eventsTopic(B)).filter((m) => m.value.type === 'BetCancelled')).toEqual(
      [],
    );
    expect(ofRound(topics.sharedEvents).filter((m) => m.value.type === 'BetCancelled')).toEqual([]);
    // The settlement names carol only: a cancelled bet is not settled.
    const settled = privateA
      .filter((m) => m.value.type === 'BetsSettled')
      .flatMap(
        (m) => (m.value.payload as { settlements: Array<Record<string, unknown>> }).settlements,
      );
    expect(settled.map((s) => s.playerId)).toEqual(['carol']);
    // Under the betId her bet's answer named: the wallet credits the bet it debited.
    expect(settled.map((s) => s.betId)).toEqual([carolBetId]);
    const lookup = await get(`/platform/rounds/${roundId}`, { 'x-platform-key': keys[A] });
    const looked = lookup.body.bets as Array<{ playerId: string; betId: string }>;
    expect(looked.filter((b) => b.playerId === 'carol').map((b) => b.betId)).toEqual([carolBetId]);

    const auditor = await signIn(studio.url, 'auditor', 'auditor-demo');
    const timeline = await get(`/audit/rounds/${roundId}/timeline`, {
      authorization: `Bearer ${auditor}`,
    });
    expect(timeline.status).toBe(200);
    const entries = timeline.body.timeline as Array<Record<string, unknown>>;
    const events = entries.filter((e) => e.kind === 'event' && e.type === 'BetCancelled');
    expect(events).toHaveLength(2);
    expect(
      entries.filter((e) => e.kind === 'settlement' && e.outcome === 'cancelled'),
    ).toHaveLength(3);

    const day = new Date().toISOString().slice(0, 10);
    const report = await get(`/platform/reports/settlements?from=${day}`, {
      'x-platform-key': keys[A],
    });
    expect(report.body.lines).toEqual([
      expect.objectContaining({
        tableId: TABLE.id,
        rounds: 1,
        bets: 1,
        stake: 3_000,
        refunds: 0,
        cancellations: 3,
      }),
    ]);
    const line = (report.body.lines as Array<Record<string, number>>)[0];
    expect(line.net).toBe(line.payout - 3_000);
    // What casino-a credited back, summed from the BetCancelled events its topic carried.
    const credited = cancelled.reduce(
      (sum, m) => sum + Number((m.value.payload as { returned: number }).returned),
      0,
    );
    expect(credited).toBe(3_500);
    expect(line.cancelledStake).toBe(credited);
    // The payout and net equal the sums of the BetsSettled entries casino-a received.
    expect(line.payout).toBe(settled.reduce((sum, s) => sum + Number(s.returned), 0));
    expect(line.net).toBe(settled.reduce((sum, s) => sum + Number(s.net), 0));
    // Hold monitoring rates the round by carol's bet alone.
    const hold = new HoldStatisticsReader((sql, params) => q(sql, params));
    const rated = await hold.lastRounds(TABLE.id, 10);
    expect(rated.map((r) => [r.roundId, r.betType, r.stake])).toEqual([[roundId, 'main', 3_000]]);
    const other = await get(`/platform/reports/settlements?from=${day}`, {
      'x-platform-key': keys[B],
    });
    expect(other.body.lines).toEqual([]);
  });
});
