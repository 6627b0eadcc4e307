import { topicName } from '@studio/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import { PlatformSimulator, seededRandom } from '../../apps/platform-simulator/simulator';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { TEST_KAFKA_OUTAGE_PORT } from '../support/environment';
import { KafkaBroker } from '../support/kafka-broker';
import { startTestStudio, uniqueTopicPrefix, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const virtualShoe = (seed: number) => ({
  wireFormat: 'studio-framed-v1',
  virtualShoe: { seed, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
});

const TABLES = [
  {
    id: 'pd-outage',
    name: 'Pok Deng outage',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 1_500,
    roundIntervalMs: 200,
    scanner: virtualShoe(11),
  },
  {
    id: 'ibj-outage',
    name: 'Infinite Blackjack outage',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 1_500,
    decisionWindowMs: 1_000,
    roundIntervalMs: 200,
    scanner: virtualShoe(12),
  },
] as unknown as TableDefinition[];

/**
 * The broker stops while rounds are being played (and bet on by the simulator) and comes back:
 * every event reaches the consumer, in per-table order, and after de-duplication by event id no
 * event is seen twice. Owns its broker, so stopping it disturbs no other test.
 */
describe('rounds across a broker restart', () => {
  const port = TEST_KAFKA_OUTAGE_PORT + 4;
  const broker = KafkaBroker.forTest(port, 'rounds-outage');
  const prefix = uniqueTopicPrefix('rounds-outage');
  let db: TestDatabase;
  let studio: RunningStudio | undefined;
  let client: PlatformKafkaClient | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('kafka-rounds-outage');
    await broker.startFresh();
  });

  afterAll(async () => {
    await client?.stop();
    await studio?.close();
    await broker.stop();
    await db?.drop();
  });

  it('delivers every event of rounds played through the outage, in order, none twice after de-duplication', async () => {
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: broker.brokers,
      topicPrefix: prefix,
      tables: TABLES,
      env: { VIRTUAL_DEALER_PACE_MS: '20', KAFKA_COMMAND_GROUP_ID: `studio-${prefix}` },
    });
    client = new PlatformKafkaClient({ brokers: [broker.brokers], topicPrefix: prefix });
    const simulator = new PlatformSimulator(
      client,
      [
        { tableId: 'pd-outage', game: 'pok-deng', currency: 'THB', players: ['a1', 'a2', 'a3'] },
        {
          tableId: 'ibj-outage',
          game: 'infinite-blackjack',
          currency: 'EUR',
          players: ['b1', 'b2'],
        },
      ],
      seededRandom(3),
      { startBalance: 0, runId: 'outage', betUnit: 1_000 },
    );
    await client.start();
    const q = <T>(sql: string): Promise<T[]> => studio!.database.dataSource.query(sql);
    const betsPlaced = async () =>
      (
        await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM bets WHERE command_id LIKE 'outage-%'`,
        )
      )[0].n;
    await waitFor('simulator bets in a round', async () => (await betsPlaced()) > 0, 60_000);

    await broker.stop();
    const outboxAtStop = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM outbox`))[0].n;
    // Rounds go on without the broker: their events wait in the outbox.
    await waitFor(
      'events written during the outage',
      async () =>
        (await q<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_pending`))[0].n >= 10,
      60_000,
    );
    await broker.start();
    await waitFor(
      'a round completed after the restart, and the outbox drained',
      async () => {
        const [{ n }] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_pending`);
        return n === 0 && client!.events.length > outboxAtStop + 10;
      },
      120_000,
      200,
    );
    simulator.stop();
    // The command intake is back too: a command sent now is answered.
    await client.send({
      commandId: 'after-restart',
      type: 'PlaceBet',
      schemaVersion: 1,
      tableId: 'nowhere',
      playerId: 'a1',
      betType: 'main',
      amount: 1_000,
    });
    const sentAt = Date.now();
    const answer = await client.waitForResult('after-restart', 90_000).catch(async (error) => {
      // Where it stopped: unread (the group's committed offsets behind the topic's end) or read
      // and answered where the client did not see it.
      throw new Error(`${String(error)}; ${await commandsProgress(broker.brokers, prefix)}`);
    });
    console.log(`the command sent after the restart was answered in ${Date.now() - sentAt} ms`);
    expect(answer).toMatchObject({ status: 'rejected', code: 'unknown-table' });
    const rows = await q<{ event_id: string; table_id: string; seq: string }>(
      `SELECT event_id, table_id, seq FROM outbox ORDER BY id`,
    );
    await waitFor(
      'every published event at the consumer',
      async () => new Set(client!.events.map((e) => e.envelope.eventId)).size >= rows.length,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 1_000)); // any late duplicate arrives before counting
    const received = client.events;
    const ids = new Set(received.map((e) => e.envelope.eventId));
    const missing = rows.filter((r) => !ids.has(r.event_id));
    console.log(
      `outbox rows ${rows.length} (${outboxAtStop} before the broker stopped); received ${received.length}, ` +
        `unique ${ids.size}, duplicates dropped by the simulator ${simulator.stats.duplicateEventsDropped}, ` +
        `seq gaps ${simulator.stats.seqGaps}, missing ${missing.length}`,
    );
    expect(missing).toEqual([]);
    expect(simulator.stats.seqGaps).toBe(0);
    for (const table of ['pd-outage', 'ibj-outage']) {
      const seen = new Set<string>();
      const seqs = received
        .filter((e) => e.key === table)
        .filter((e) =>
          seen.has(e.envelope.eventId) ? false : (seen.add(e.envelope.eventId), true),
        )
        .map((e) => e.envelope.seq);
      // The tables kept playing after the snapshot of the outbox: compare at least that much.
      const stored = rows.filter((r) => r.table_id === table).length;
      expect(seqs.length).toBeGreaterThanOrEqual(stored);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    }
  });
});

/** The command group's committed offsets against the commands topic's end, per partition. */
async function commandsProgress(brokers: string, prefix: string): Promise<string> {
  const admin = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topic = topicName('platformCommands', prefix);
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId: `studio-${prefix}`, topics: [topic] });
    const group = (await admin.describeGroups([`studio-${prefix}`])).groups[0];
    const behind = ends.map((e) => {
      const at = committed.partitions.find((p) => p.partition === e.partition)?.offset;
      return `${e.partition}:${at}/${e.high}`;
    });
    return `group ${group.state} with ${group.members.length} member(s); committed/end ${behind.join(' ')}`;
  } catch (error) {
    return `the group could not be described: ${String(error)}`;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
