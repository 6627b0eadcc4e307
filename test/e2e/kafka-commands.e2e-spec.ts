import {
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_MAX_VALUE_BYTES,
  PlaceBetCommandMessage,
} from '@studio/contracts';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { CloseBettingCommand } from '../../src/use-cases/close-betting/close-betting.command';
import { CloseBetting } from '../../src/use-cases/close-betting/close-betting.use-case';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { startTestStudio, uniqueTopicPrefix } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { recordPlatformTraffic } from '../support/conformance-recorder';

const METRICS_TOKEN = 'kafka-commands-metrics-token-0123456789';

jest.setTimeout(120_000);

const TABLE = 'pd-kafka';
const IBJ = 'ibj-kafka';
const TABLES = [
  {
    id: IBJ,
    name: 'Infinite Blackjack over Kafka',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 600_000,
    roundIntervalMs: 300,
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: { seed: 9, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
    },
  } as unknown as TableDefinition,
  {
    id: TABLE,
    name: 'Pok Deng over Kafka',
    game: 'pok-deng',
    currency: 'THB',
    // Long enough that the test closes betting itself.
    bettingWindowMs: 600_000,
    roundIntervalMs: 300,
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: { seed: 7, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
    },
  } as unknown as TableDefinition,
];

/**
 * The command intake against the real broker: every poison message gets its specific dead letter
 * or rejection, the consumer carries on after each, and a repeated command id gets the first
 * answer without being applied twice.
 */
describe('Kafka command intake', () => {
  const prefix = uniqueTopicPrefix('commands');
  let db: TestDatabase;
  let studio: RunningStudio;
  let platform: PlatformKafkaClient;
  let roundId: string;

  const bet = (commandId: string, extra: Partial<PlaceBetCommandMessage> = {}) =>
    ({
      commandId,
      type: 'PlaceBet',
      schemaVersion: 1,
      tableId: TABLE,
      playerId: 'alice',
      betType: 'player',
      spot: '1',
      amount: 1_000,
      currency: 'THB',
      ...extra,
    }) as PlaceBetCommandMessage;

  beforeAll(async () => {
    db = await createTestDatabase('kafka-commands');
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: TABLES,
      env: {
        VIRTUAL_DEALER_PACE_MS: '20',
        KAFKA_COMMAND_GROUP_ID: `studio-${prefix}`,
        METRICS_TOKEN,
      },
    });
    platform = new PlatformKafkaClient({
      brokers: [TEST_KAFKA_BROKERS],
      topicPrefix: prefix,
      read: { events: true, results: true, deadLetters: true },
    });
    await platform.start();
    const opened = await platform.waitFor(
      'betting to open',
      () =>
        platform.events.find(
          (e) => e.envelope.type === 'BettingOpened' && e.envelope.tableId === TABLE,
        ),
      60_000,
    );
    roundId = opened.envelope.roundId!;
  });

  afterAll(async () => {
    recordPlatformTraffic('kafka-commands', platform);
    await platform?.stop();
    await studio?.close();
    await db?.drop();
  });

  const deadLetter = (offsetOrder: number) =>
    platform.waitFor(`dead letter #${offsetOrder}`, () => platform.deadLetters[offsetOrder - 1]);

  it('dead-letters bad JSON with its raw bytes and the reason, then keeps consuming', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x63, 0xff, 0xfe, 0x0a]); // '{"c' + invalid UTF-8
    await platform.sendRaw(TABLE, bytes);
    const letter = await deadLetter(1);
    expect(letter.value).toEqual(bytes);
    expect(letter.key).toBe(TABLE);
    expect(letter.headers[DEAD_LETTER_HEADERS.reasonCode]).toBe('invalid-json');
    expect(letter.headers[DEAD_LETTER_HEADERS.sourceTopic]).toBe(platform.topics.commands);

    await platform.sendRaw(TABLE, '{"commandId": "x", "type": "PlaceBet",');
    expect((await deadLetter(2)).headers[DEAD_LETTER_HEADERS.reasonCode]).toBe('invalid-json');

    await platform.send(bet('ok-after-poison'));
    expect(await platform.waitForResult('ok-after-poison')).toMatchObject({
      status: 'accepted',
      duplicate: false,
    });
  });

  it('dead-letters a message too large to publish again whole, cut, and keeps consuming', async () => {
    // Near the broker's 1 MiB default: the original plus the headers would not fit again, and a
    // dead letter that cannot be published stopped the consumer for every platform.
    const huge = Buffer.from(JSON.stringify({ pad: 'x'.repeat(1_000_000) }));
    await platform.sendRaw(TABLE, huge);
    const letter = await deadLetter(3);
    expect(letter.value).toEqual(huge.subarray(0, DEAD_LETTER_MAX_VALUE_BYTES));
    expect(letter.headers[DEAD_LETTER_HEADERS.originalBytes]).toBe(String(huge.length));
    expect(letter.headers[DEAD_LETTER_HEADERS.reasonCode]).toBe('unknown-command-type');
    await platform.send(bet('ok-after-huge'));
    expect(await platform.waitForResult('ok-after-huge')).toMatchObject({ status: 'accepted' });
  });

  it('dead-letters a wrong schema and an unknown command type, naming the offending field', async () => {
    const wrong = JSON.stringify({ ...bet('wrong-schema'), amount: '1000' });
    await platform.sendRaw(TABLE, wrong);
    const schema = await deadLetter(4);
    expect(schema.value?.toString('utf8')).toBe(wrong);
    expect(schema.headers[DEAD_LETTER_HEADERS.reasonCode]).toBe('schema-violation');
    expect(schema.headers[DEAD_LETTER_HEADERS.reason]).toBe(
      'PlaceBet: /amount must be integer, got string',
    );
    await platform.sendRaw(TABLE, JSON.stringify({ ...bet('cashout'), type: 'Cashout' }));
    expect((await deadLetter(5)).headers[DEAD_LETTER_HEADERS.reasonCode]).toBe(
      'unknown-command-type',
    );
    // Nothing of these reached the table.
    const [{ n }] = await studio.database.dataSource.query(
      `SELECT count(*)::int AS n FROM bets WHERE command_id IN ('wrong-schema', 'cashout')`,
    );
    expect(n).toBe(0);
  });

  it('rejects a command for an unknown table with unknown-table', async () => {
    await platform.send(bet('no-such-table', { tableId: 'nowhere-1' }));
    expect(await platform.waitForResult('no-such-table')).toMatchObject({
      status: 'rejected',
      code: 'unknown-table',
      tableId: 'nowhere-1',
    });
  });

  it('answers a repeated command id with the first answer and applies it once', async () => {
    await platform.send(bet('bet-1', { playerId: 'bob', spot: '2', amount: 2_500 }));
    const first = await platform.waitForResult('bet-1');
    expect(first).toMatchObject({ status: 'accepted', duplicate: false });
    await platform.send(bet('bet-1', { playerId: 'bob', spot: '2', amount: 2_500 }));
    const answers = await platform.waitFor('the second answer', () =>
      platform.resultsFor('bet-1').length === 2 ? platform.resultsFor('bet-1') : undefined,
    );
    expect(answers[1]).toMatchObject({ status: 'accepted', duplicate: true, reply: first.reply });
    const [{ n }] = await studio.database.dataSource.query(
      `SELECT count(*)::int AS n FROM bets WHERE command_id = 'bet-1'`,
    );
    expect(n).toBe(1);
  });

  it('refuses a command id reused for a different command, and keeps the first on record', async () => {
    // After bet-1 (bob, 2,500 on spot 2) was answered: the same id for another player and amount.
    await platform.send(bet('bet-1', { playerId: 'carol', spot: '3', amount: 9_000 }));
    const answers = await platform.waitFor('the reused id answered', () =>
      platform.resultsFor('bet-1').length === 3 ? platform.resultsFor('bet-1') : undefined,
    );
    expect(answers[2]).toMatchObject({
      status: 'rejected',
      code: 'command-id-reused',
      playerId: 'carol',
      duplicate: false,
    });
    // Reused within one batch: the first is applied, the second refused.
    await platform.sendMany([
      bet('bet-9', { playerId: 'dan', spot: '4' }),
      bet('bet-9', { playerId: 'erin', spot: '5' }),
    ]);
    const pair = await platform.waitFor('both answers', () =>
      platform.resultsFor('bet-9').length === 2 ? platform.resultsFor('bet-9') : undefined,
    );
    expect(pair.map((a) => [a.playerId, a.status, a.code])).toEqual([
      ['dan', 'accepted', undefined],
      ['erin', 'rejected', 'command-id-reused'],
    ]);
    const rows = await studio.database.dataSource.query(
      `SELECT command_id, player_id, amount::int AS amount FROM bets
        WHERE command_id IN ('bet-1', 'bet-9') ORDER BY command_id`,
    );
    expect(rows).toEqual([
      { command_id: 'bet-1', player_id: 'bob', amount: 2_500 },
      { command_id: 'bet-9', player_id: 'dan', amount: 1_000 },
    ]);
  });

  it('rejects a bet after betting closed with betting-closed, and one for another round with unknown-round', async () => {
    expect(
      await studio.app
        .get(CloseBetting)
        .execute(CloseBettingCommand.create({ tableId: TABLE, by: 'test-dealer' })),
    ).toMatchObject({
      accepted: true,
    });
    await platform.send(bet('too-late', { roundId }));
    expect(await platform.waitForResult('too-late')).toMatchObject({
      status: 'rejected',
      code: 'betting-closed',
    });
    await platform.send(bet('other-round', { roundId: '00000000-0000-4000-8000-000000000000' }));
    expect(await platform.waitForResult('other-round')).toMatchObject({
      status: 'rejected',
      code: 'unknown-round',
    });
  });

  it('counts commands and relay work on GET /metrics', async () => {
    expect((await fetch(`${studio.url}/metrics`)).status).toBe(401);
    const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
    const text = await (await fetch(`${studio.url}/metrics`, { headers })).text();
    const value = (line: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${line} `))
          ?.split(' ')[1],
      );
    // Five dead letters above (two bad JSON, a huge one, a wrong schema, an unknown type), and
    // each one published again after a rebalance (at least once; the platform keeps it once).
    expect(value('studio_kafka_commands_total{outcome="dead-lettered"}')).toBe(
      5 + platform.deadLetterRepeats,
    );
    // ok-after-poison, ok-after-huge, bet-1, the repeat of bet-1 (answered from the store), bet-9.
    expect(value('studio_kafka_commands_total{outcome="accepted"}')).toBe(5);
    expect(value('studio_kafka_duplicate_commands_total')).toBe(1);
    // bet-1 and bet-9 reused, no-such-table, too-late, other-round.
    expect(value('studio_kafka_commands_total{outcome="rejected"}')).toBe(5);
    expect(value('studio_outbox_published_events_total')).toBeGreaterThan(0);
    expect(text).toMatch(/^studio_outbox_pending_events \d+$/m);
  });

  it('answers a burst read as one batch message by message, applied in a few transactions', async () => {
    const opened = await platform.waitFor(
      'Infinite Blackjack betting to open',
      () =>
        platform.events.find(
          (e) => e.envelope.type === 'BettingOpened' && e.envelope.tableId === IBJ,
        ),
      60_000,
    );
    const versionOf = async () =>
      Number(
        (
          await studio.database.dataSource.query(
            `SELECT version FROM table_state WHERE table_id = $1`,
            [IBJ],
          )
        )[0].version,
      );
    const before = await versionOf();
    const ibjBet = (i: number, extra: Partial<PlaceBetCommandMessage> = {}) =>
      bet(`burst-${i}`, {
        tableId: IBJ,
        roundId: opened.envelope.roundId,
        playerId: `q${i}`,
        betType: 'main',
        spot: undefined,
        amount: 1_000,
        currency: 'EUR',
        ...extra,
      });
    const burst = [
      ...Array.from({ length: 300 }, (_, i) => ibjBet(i)),
      ibjBet(5), // the same command id again, inside the burst
      ibjBet(300, { playerId: 'q7' }), // a second bet of a player: refused
      ibjBet(301, { amount: 1 }), // under the table minimum
      ibjBet(302, { tableId: 'nowhere-2' }),
    ];
    await platform.sendMany(burst);
    for (const c of burst) await platform.waitForResult(c.commandId, 60_000);
    expect(platform.resultsFor('burst-5')).toEqual([
      expect.objectContaining({ status: 'accepted', duplicate: false }),
      expect.objectContaining({ status: 'accepted', duplicate: true }),
    ]);
    expect(platform.resultsFor('burst-300')[0]).toMatchObject({ code: 'duplicate-bet' });
    expect(platform.resultsFor('burst-301')[0]).toMatchObject({ code: 'under-limit' });
    expect(platform.resultsFor('burst-302')[0]).toMatchObject({ code: 'unknown-table' });
    const accepted = Array.from({ length: 300 }, (_, i) => platform.resultsFor(`burst-${i}`)[0]);
    expect(accepted.every((r) => r.status === 'accepted')).toBe(true);
    const [{ bets, events, answers }] = await studio.database.dataSource.query(
      `SELECT (SELECT count(*)::int FROM bets WHERE table_id = $1 AND command_id LIKE 'burst-%') AS bets,
              (SELECT coalesce(sum(jsonb_array_length(payload->'bets')), 0)::int FROM round_events
                WHERE table_id = $1 AND type = 'BetsAccepted') AS events,
              -- Stored answers: an accepted bet's in its bet row, the others' in processed_commands.
              ((SELECT count(*)::int FROM processed_commands WHERE command_id LIKE 'burst-%') +
               (SELECT count(*)::int FROM bets WHERE command_id LIKE 'burst-%' AND answer IS NOT NULL)) AS answers`,
      [IBJ],
    );
    expect({ bets, events, answers }).toEqual({ bets: 300, events: 300, answers: 302 });
    // Read in batches: 300 accepted bets cost a handful of table transitions, not 300.
    expect((await versionOf()) - before).toBeLessThan(30);
  });
});
