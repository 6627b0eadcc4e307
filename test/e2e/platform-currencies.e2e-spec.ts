import { Kafka, logLevel } from 'kafkajs';
import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { ensureKafkaTopics } from '../../src/kafka/kafka-topics';
import { PlatformTopics } from '../../src/kafka/platform-topics';
import { runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { platformKafkaPlan } from '../../src/platforms-kafka/platform-kafka-plan';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { KafkaCollector } from '../support/kafka-collector';
import {
  postJson,
  signIn,
  startTestStudio,
  uniqueTopicPrefix,
  waitFor,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const virtualShoe = (seed: number) => ({
  wireFormat: 'studio-framed-v1',
  virtualShoe: { seed, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
});

/** Two tables taking EUR and THB, each currency with its own limits (THB's far above EUR's). */
const TABLES = [
  {
    id: 'ibj-fx',
    name: 'Infinite Blackjack EUR/THB',
    game: 'infinite-blackjack',
    currencies: {
      EUR: { main: { min: 100, max: 50_000 } },
      THB: { main: { min: 3_000, max: 2_000_000 } },
    },
    bettingWindowMs: 6_000,
    decisionWindowMs: 1_500,
    roundIntervalMs: 300,
    scanner: virtualShoe(51),
  },
  {
    id: 'pd-fx',
    name: 'Pok Deng THB/EUR',
    game: 'pok-deng',
    currencies: {
      THB: { player: { min: 1_000, max: 2_000_000 } },
      EUR: { player: { min: 100, max: 50_000 } },
    },
    bettingWindowMs: 6_000,
    roundIntervalMs: 300,
    scanner: virtualShoe(52),
  },
] as unknown as TableDefinition[];

interface Settlement {
  betId: string;
  playerId: string;
  stake: number;
  returned: number;
  net: number;
  outcome: string;
  currency: string;
}

/**
 * Two platforms of different currencies (casino-eu: EUR, casino-th: THB) bet on the same Infinite
 * Blackjack round and the same Pok Deng round: each bet is held to its own currency's limits and
 * settles in its currency; each platform's report equals, per table and currency, the sum of the
 * settlement events of its own private topic on the real broker; a bet in a currency the table
 * does not take, or its platform does not use, is refused and writes nothing.
 */
describe('platforms of different currencies at the same tables', () => {
  const prefix = uniqueTopicPrefix('fx');
  const topics = new PlatformTopics(prefix);
  let db: TestDatabase;
  let studio: RunningStudio;
  let supervisorToken: string;
  const keys: Record<string, string> = {};
  const collectors: Record<string, KafkaCollector> = {};
  const rounds: Record<string, string> = {};

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);
  const bet = (tableId: string, platform: string, body: Record<string, unknown>) =>
    postJson(studio.url, `/platform/tables/${tableId}/bets`, body, {
      'x-platform-key': keys[platform],
    });
  const get = async (path: string, platform: string) => {
    const response = await fetch(`${studio.url}${path}`, {
      headers: { 'x-platform-key': keys[platform] },
    });
    return { status: response.status, text: await response.text() };
  };

  async function bettingRound(tableId: string): Promise<string> {
    const round = await waitFor(
      `betting to open at ${tableId}`,
      async () => {
        const response = await fetch(`${studio.url}/tables/${tableId}`, {
          headers: { authorization: `Bearer ${supervisorToken}` },
        });
        const view = (await response.json()) as {
          round: { id: string; bettingOpen: boolean } | null;
        };
        return view.round?.bettingOpen ? view.round : undefined;
      },
      120_000,
    );
    return round.id;
  }

  beforeAll(async () => {
    const kafka = new Kafka({
      clientId: 'currencies-test',
      brokers: [TEST_KAFKA_BROKERS],
      logLevel: logLevel.NOTHING,
    });
    const settings = { topicPrefix: prefix, commandPartitions: 1, eventPartitions: 1 };
    for (const platform of ['casino-eu', 'casino-th', 'casino-mix']) {
      await ensureKafkaTopics(kafka, platformKafkaPlan(platform, settings).topics);
    }
    db = await createTestDatabase('platform-currencies');
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: TABLES,
      env: {
        DEMO_USERS: 'true',
        VIRTUAL_DEALER_PACE_MS: '40',
        KAFKA_COMMAND_PARTITIONS: '1',
        KAFKA_EVENT_PARTITIONS: '1',
        KAFKA_COMMAND_GROUP_ID: `studio-${prefix}`,
      },
    });
    const deps = {
      repository: new PlatformsRepository(studio.database.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    };
    for (const [platform, currencies] of [
      ['casino-eu', 'EUR'],
      ['casino-th', 'THB'],
      ['casino-mix', 'EUR,THB'],
    ]) {
      await runPlatformAdmin(['add', platform, currencies, platform], deps);
      keys[platform] = (await runPlatformAdmin(['key:create', platform], deps)).split('\n')[1];
      collectors[platform] = new KafkaCollector(TEST_KAFKA_BROKERS, topics.eventsTopic(platform));
      await collectors[platform].start();
    }
    supervisorToken = await signIn(studio.url, 'supervisor', 'supervisor-demo');
  });

  afterAll(async () => {
    for (const collector of Object.values(collectors)) await collector.stop();
    await studio?.close();
    await db?.drop();
  });

  it.each([
    ['ibj-fx', 'main', [undefined, undefined, undefined, undefined], 'EUR', 'THB'],
    ['pd-fx', 'player', ['1', '2', '3', '4'], 'THB', 'EUR'],
  ])(
    '%s: each bet is held to its own currency and refused in one the table or platform does not take',
    async (tableId, betType, [spotEu, spotTh, spotMia, spotTom], defaultCurrency, other) => {
      const roundId = await bettingRound(tableId);
      rounds[tableId] = roundId;
      const base = { roundId, betType };
      // 100,000 THB minor units: above the EUR maximum, within THB's.
      const tooMuchForEur = await bet(tableId, 'casino-eu', {
        ...base,
        commandId: `${tableId}-eu-big`,
        playerId: 'alice',
        spot: spotEu,
        amount: 100_000,
      });
      expect(tooMuchForEur).toMatchObject({ status: 409, body: { error: 'over-limit' } });
      // No currency named: casino-eu's (EUR), whatever the table's default.
      expect(
        await bet(tableId, 'casino-eu', {
          ...base,
          commandId: `${tableId}-eu-1`,
          playerId: 'alice',
          spot: spotEu,
          amount: 2_000,
        }),
      ).toMatchObject({ status: 200, body: { accepted: true } });
      expect(
        await bet(tableId, 'casino-th', {
          ...base,
          commandId: `${tableId}-th-1`,
          playerId: 'alice',
          spot: spotTh,
          amount: 100_000,
          currency: 'THB',
        }),
      ).toMatchObject({ status: 200, body: { accepted: true } });
      // A platform of both currencies: a bet without currency is in the table's default.
      for (const [playerId, spot, currency] of [
        ['mia', spotMia, undefined],
        ['tom', spotTom, other],
      ]) {
        expect(
          await bet(tableId, 'casino-mix', {
            ...base,
            commandId: `${tableId}-mix-${playerId}`,
            playerId,
            spot,
            amount: 5_000,
            currency,
          }),
        ).toMatchObject({ status: 200, body: { accepted: true } });
      }
      const refused = [
        ['casino-eu', 'USD', 'wrong-currency'],
        ['casino-eu', 'THB', 'currency-not-used-by-platform'],
        ['casino-th', 'EUR', 'currency-not-used-by-platform'],
      ];
      for (const [platform, currency, code] of refused) {
        const answer = await bet(tableId, platform, {
          ...base,
          commandId: `${tableId}-refused-${platform}-${currency}`,
          playerId: 'bob',
          spot: spotTh,
          amount: 5_000,
          currency,
        });
        expect(answer).toMatchObject({ status: 409, body: { error: code } });
      }
      // Refused before the table: nothing written, no bet, no stored answer, no event.
      const written = await q<{ n: number }>(
        `SELECT (SELECT count(*) FROM bets WHERE command_id LIKE $1)::int
              + (SELECT count(*) FROM processed_commands WHERE command_id LIKE $1)::int
              + (SELECT count(*) FROM round_events WHERE payload::text LIKE '%bob%')::int AS n`,
        [`${tableId}-refused-%`],
      );
      expect(written).toEqual([{ n: 0 }]);
      const bets = await q<{ player_id: string; amount: string; currency: string }>(
        `SELECT player_id, amount, currency FROM bets WHERE round_id = $1 ORDER BY player_id`,
        [roundId],
      );
      expect(bets).toEqual([
        { player_id: 'casino-eu:alice', amount: '2000', currency: 'EUR' },
        { player_id: 'casino-mix:mia', amount: '5000', currency: defaultCurrency },
        { player_id: 'casino-mix:tom', amount: '5000', currency: other },
        { player_id: 'casino-th:alice', amount: '100000', currency: 'THB' },
      ]);
    },
  );

  it('settles each bet in its own currency, on each platform’s own topic', async () => {
    for (const tableId of Object.keys(rounds)) {
      await waitFor(
        `round ${tableId} completed`,
        async () => {
          const [r] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [
            rounds[tableId],
          ]);
          return r?.status === 'completed' ? true : undefined;
        },
        120_000,
        200,
      );
    }
    const rows = await q<{ player_id: string; currency: string }>(
      `SELECT DISTINCT player_id, currency FROM settlements WHERE round_id = ANY($1::uuid[])
        ORDER BY player_id, currency`,
      [Object.values(rounds)],
    );
    expect(rows).toEqual([
      { player_id: 'casino-eu:alice', currency: 'EUR' },
      { player_id: 'casino-mix:mia', currency: 'EUR' },
      { player_id: 'casino-mix:mia', currency: 'THB' },
      { player_id: 'casino-mix:tom', currency: 'EUR' },
      { player_id: 'casino-mix:tom', currency: 'THB' },
      { player_id: 'casino-th:alice', currency: 'THB' },
    ]);
    // Each entry of a platform's private events is in its bet's currency.
    const betCurrency = new Map(
      (
        await q<{ id: string; currency: string }>(
          `SELECT id, currency FROM bets WHERE round_id = ANY($1::uuid[])`,
          [Object.values(rounds)],
        )
      ).map((b) => [b.id, b.currency]),
    );
    for (const platform of ['casino-eu', 'casino-th', 'casino-mix']) {
      const settled = await settledOn(platform);
      expect(Object.keys(settled).sort()).toEqual(['ibj-fx', 'pd-fx']);
      for (const entries of Object.values(settled)) {
        expect(entries.length).toBeGreaterThan(0);
        for (const s of entries) {
          if (betCurrency.has(s.betId)) expect(s.currency).toBe(betCurrency.get(s.betId));
        }
      }
    }
    const currenciesOf = async (platform: string) =>
      [
        ...new Set(
          Object.values(await settledOn(platform))
            .flat()
            .map((s) => s.currency),
        ),
      ].sort();
    expect(await currenciesOf('casino-eu')).toEqual(['EUR']);
    expect(await currenciesOf('casino-th')).toEqual(['THB']);
    expect(await currenciesOf('casino-mix')).toEqual(['EUR', 'THB']);
  });

  it('reports each platform its own settlements per day, table and currency, equal to its private events to the minor unit', async () => {
    const day = new Date().toISOString().slice(0, 10);
    for (const platform of ['casino-eu', 'casino-th', 'casino-mix']) {
      const settled = await settledOn(platform);
      const expected = Object.entries(settled).flatMap(([tableId, entries]) =>
        [...new Set(entries.map((s) => s.currency))].map((currency) => {
          const own = entries.filter((s) => s.currency === currency);
          const sum = (pick: (s: Settlement) => number) => own.reduce((t, s) => t + pick(s), 0);
          return {
            day,
            tableId,
            currency,
            rounds: 1,
            bets: own.length,
            stake: sum((s) => s.stake),
            payout: sum((s) => (s.outcome === 'void-refund' ? 0 : s.returned)),
            refunds: sum((s) => (s.outcome === 'void-refund' ? s.returned : 0)),
            cancellations: 0,
            cancelledStake: 0,
            net: sum((s) => s.net),
          };
        }),
      );
      const answer = await get(`/platform/reports/settlements?from=${day}`, platform);
      expect(answer.status).toBe(200);
      const report = JSON.parse(answer.text) as { lines: Record<string, unknown>[] };
      // Ordered as the report is: table, then currency (one day).
      const order = (a: (typeof expected)[number], b: (typeof expected)[number]) =>
        a.tableId.localeCompare(b.tableId) || a.currency.localeCompare(b.currency);
      expect(report.lines).toEqual(expected.sort(order));
      // casino-mix played both currencies at each table: a line for each, never one sum.
      if (platform === 'casino-mix') expect(report.lines).toHaveLength(4);
      const csv = (await get(`/platform/reports/settlements?from=${day}&format=csv`, platform))
        .text;
      expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1 + expected.length);
    }
  });

  /** A platform's settlement entries of the test's rounds, from its private events topic. */
  async function settledOn(platform: string): Promise<Record<string, Settlement[]>> {
    const collector = collectors[platform];
    const ofRounds = (e: { envelope: { type: string; roundId?: string | null } }) =>
      (e.envelope.type === 'BetsSettled' || e.envelope.type === 'BetsRefunded') &&
      Object.values(rounds).includes(e.envelope.roundId ?? '');
    const events = await waitFor(
      `${platform}'s settlements of both rounds`,
      async () => {
        const seen = collector.events.filter(ofRounds);
        const tables = new Set(seen.map((e) => e.envelope.tableId));
        return tables.size === Object.keys(rounds).length ? seen : undefined;
      },
      60_000,
    );
    const byTable: Record<string, Settlement[]> = {};
    for (const e of events) {
      const payload = e.envelope.payload as { settlements: Settlement[] };
      (byTable[e.envelope.tableId] ??= []).push(...payload.settlements);
    }
    return byTable;
  }
});
