import { topicName } from '@studio/contracts';
import type { PlaceBetCommandMessage } from '@studio/contracts';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import type { RunningStudio } from '../../src/bootstrap';
import { READINESS_CHECKS, ReadinessCheck, runReadiness } from '../../src/health/readiness';
import { RegisterConfiguredTables } from '../../src/tables/register-configured-tables.use-case';
import { TEST_KAFKA_OUTAGE_PORT } from '../support/environment';
import { KafkaBroker } from '../support/kafka-broker';
import { KafkaCollector } from '../support/kafka-collector';
import {
  DEMO_TABLES,
  startTestStudio,
  uniqueTopicPrefix,
  waitFor,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

/**
 * The broker goes away while events are being written: they wait in the outbox, readiness says
 * Kafka is down, and once the broker is back every pending event is delivered, in table order.
 * This test owns its broker so stopping it cannot disturb other tests.
 */
describe('outbox relay across a Kafka outage', () => {
  const broker = KafkaBroker.forTest(TEST_KAFKA_OUTAGE_PORT, 'outage');
  const prefix = uniqueTopicPrefix('outage');
  const topic = topicName('tableEvents', prefix);
  let db: TestDatabase;
  let studio: RunningStudio | undefined;
  let collector: KafkaCollector | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('outage');
    await broker.startFresh();
  });

  afterAll(async () => {
    await collector?.stop().catch(() => undefined);
    await studio?.close();
    await broker.stop();
    await db.drop();
  });

  it('delivers every event written while the broker was down once it is back', async () => {
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: broker.brokers,
      topicPrefix: prefix,
    });
    const ds = studio.database.dataSource;
    const unpublished = async (type?: string) =>
      (
        await ds.query(
          `SELECT count(*)::int AS n FROM outbox_pending WHERE $1::text IS NULL OR type = $1`,
          [type ?? null],
        )
      )[0].n;
    await waitFor('initial events published', async () => (await unpublished()) === 0);

    await broker.stop();

    // State changes keep happening during the outage: each reconfiguration of every table is a
    // committed transaction with its event in the outbox.
    const register = studio.app.get(RegisterConfiguredTables);
    const rounds = 5;
    for (let i = 1; i <= rounds; i += 1) {
      await register.execute(DEMO_TABLES.map((t) => ({ ...t, name: `${t.name} v${i}` })));
    }
    expect(await unpublished('TableRegistered')).toBe(DEMO_TABLES.length * rounds);

    const notReady = await waitFor('readiness to report Kafka down', async () => {
      const response = await fetch(`${studio!.url}/health/ready`);
      if (response.status !== 503) return undefined;
      // The open answer gives statuses only; the details are the supervisors'.
      // Another check may fail for a moment on a loaded machine (the database check's timeout):
      // this waits for Kafka's, which turns to error once a send has failed.
      const report = (await runReadiness(
        studio!.app.get<ReadinessCheck[]>(READINESS_CHECKS),
      )) as unknown as { checks: { kafka: { status: string; outbox: { pending: number } } } };
      return report.checks.kafka.status === 'error' ? report : undefined;
    });
    expect(notReady.checks.kafka.status).toBe('error');
    expect(notReady.checks.kafka.outbox.pending).toBeGreaterThanOrEqual(
      DEMO_TABLES.length * rounds,
    );

    await broker.start();
    await waitFor(
      'outbox drained after the broker came back',
      async () => (await unpublished()) === 0,
      90_000,
    );

    const rows: Array<{ event_id: string; table_id: string; seq: string }> = await ds.query(
      `SELECT event_id, table_id, seq FROM outbox ORDER BY id`,
    );
    const expectedTotal = rows.length;
    collector = new KafkaCollector(broker.brokers, topic);
    await collector.start();
    const received = await collector.waitForCount(expectedTotal);
    // Let any late duplicate arrive before counting.
    await new Promise((r) => setTimeout(r, 1000));

    const uniqueIds = new Set(received.map((e) => e.envelope.eventId));
    for (const row of rows) expect(uniqueIds.has(row.event_id)).toBe(true);
    expect(uniqueIds.size).toBe(expectedTotal);

    for (const table of DEMO_TABLES) {
      // Per table, after de-duplication by event id, seq runs 1..n in the order consumed.
      const seen = new Set<string>();
      const seqs = received
        .filter((e) => e.key === table.id)
        .filter((e) =>
          seen.has(e.envelope.eventId) ? false : (seen.add(e.envelope.eventId), true),
        )
        .map((e) => e.envelope.seq);
      const stored = rows.filter((r) => r.table_id === table.id).length;
      expect(seqs).toEqual(Array.from({ length: stored }, (_, i) => i + 1));
      expect(
        received.filter((e) => e.key === table.id && e.envelope.type === 'TableRegistered'),
      ).toHaveLength(rounds + 1);
    }

    const ready = await waitFor('readiness back to ok', async () => {
      const response = await fetch(`${studio!.url}/health/ready`);
      return response.status === 200 ? response : undefined;
    });
    expect(ready.status).toBe(200);
    // Closed here, while the broker is up: the next test stops the broker again, and a client
    // still running then would leave kafkajs retry timers behind after the file ends.
    await collector.stop();
    collector = undefined;
    await studio.close();
    studio = undefined;
  });

  it('starts while the broker is down, plays its tables, and reads commands once it is back', async () => {
    const lateDb = await createTestDatabase('outage_start');
    const latePrefix = uniqueTopicPrefix('outage-start');
    let late: RunningStudio | undefined;
    let platform: PlatformKafkaClient | undefined;
    try {
      await broker.stop();
      // A restart during the outage: the service starts instead of exiting.
      late = await startTestStudio({
        databaseUrl: lateDb.url,
        kafkaBrokers: broker.brokers,
        topicPrefix: latePrefix,
        // Not the first studio's group: a group's members must read the same topics.
        env: { KAFKA_COMMAND_GROUP_ID: `${latePrefix}commands` },
      });
      expect(late.commandIntake?.status).toBe('waiting-for-kafka');
      expect((await fetch(`${late.url}/health/ready`)).status).toBe(503);
      const checks = late.app.get<ReadinessCheck[]>(READINESS_CHECKS);
      expect((await runReadiness(checks)).checks.commandIntake).toMatchObject({
        status: 'error',
        message: expect.stringContaining('The command intake waits for Kafka'),
      });
      // Its tables run: their registrations are committed and wait in the outbox.
      const pending = await late.database.dataSource.query(
        `SELECT count(*)::int AS n FROM outbox_pending WHERE type = 'TableRegistered'`,
      );
      expect(pending[0].n).toBe(DEMO_TABLES.length);

      await broker.start();
      const running = late;
      await waitFor(
        'the command intake to start',
        async () => (running.commandIntake?.status === 'running' ? true : undefined),
        60_000,
      );
      platform = new PlatformKafkaClient({ brokers: [broker.brokers], topicPrefix: latePrefix });
      await platform.start();
      const table = DEMO_TABLES.find((t) => t.game === 'pok-deng')!;
      await platform.send({
        commandId: 'after-the-outage',
        type: 'PlaceBet',
        schemaVersion: 1,
        tableId: table.id,
        playerId: 'alice',
        betType: 'player',
        spot: '1',
        amount: 1_000,
        currency: table.currency,
      } as PlaceBetCommandMessage);
      const client = platform;
      const answer = await waitFor(
        'the command to be answered',
        async () => client.results.find((r) => r.commandId === 'after-the-outage'),
        60_000,
      );
      expect(answer.tableId).toBe(table.id);
      await waitFor(
        'the outbox drained',
        async () => {
          const rows = await running.database.dataSource.query(
            `SELECT count(*)::int AS n FROM outbox_pending`,
          );
          return rows[0].n === 0 ? true : undefined;
        },
        60_000,
      );
      // Ready again only now that both the relay and the command intake are running.
      expect((await runReadiness(checks)).checks.commandIntake).toEqual({ status: 'ok' });
      await waitFor(
        'readiness back to ok',
        async () =>
          (await fetch(`${running.url}/health/ready`)).status === 200 ? true : undefined,
        60_000,
      );
    } finally {
      await platform?.stop().catch(() => undefined);
      await late?.close();
      await lateDb.drop();
    }
  });
});
