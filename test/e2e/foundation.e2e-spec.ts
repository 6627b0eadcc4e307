import { Logger } from '@nestjs/common';
import { TABLE_REGISTERED, topicName } from '@studio/contracts';
import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import type { RunningStudio } from '../../src/bootstrap';
import { READINESS_CHECKS, ReadinessCheck, runReadiness } from '../../src/health/readiness';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { KafkaCollector, ReceivedEvent } from '../support/kafka-collector';
import {
  DEMO_TABLES,
  startTestStudio,
  uniqueTopicPrefix,
  waitFor,
} from '../support/studio-harness';
import { serviceLogFile } from '../support/service-log-file';
import { createTestDatabase, TestDatabase } from '../support/test-database';

const METRICS_TOKEN = 'foundation-metrics-token-0123456789';

jest.setTimeout(120_000);

const isRegistration = (e: ReceivedEvent) => e.envelope.type === TABLE_REGISTERED;

/**
 * The foundation end to end: the real service on the real PostgreSQL (migrations applied at
 * start-up) registers its tables, and the relay publishes each TableRegistered event to the real
 * Kafka broker, where an independent consumer reads it back.
 */
describe('studio service on real PostgreSQL and real Kafka', () => {
  let db: TestDatabase;
  let studio: RunningStudio | undefined;
  let collector: KafkaCollector | undefined;
  const prefix = uniqueTopicPrefix('foundation');
  const topic = topicName('tableEvents', prefix);

  beforeAll(async () => {
    // Empty: the studio itself migrates it at start-up.
    db = await createTestDatabase('foundation', { empty: true });
  });

  afterAll(async () => {
    await collector?.stop();
    await studio?.close();
    await db.drop();
  });

  it('publishes TableRegistered for every configured table and marks the outbox rows published', async () => {
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
    });
    const ds = studio.database.dataSource;

    const migrations = await ds.query(`SELECT name FROM schema_migrations ORDER BY id`);
    expect(migrations.map((m: { name: string }) => m.name)).toContain(
      'CreateTablesAndOutbox1764400000000',
    );

    const published = await waitFor('outbox rows marked published', async () => {
      const rows = await ds.query(
        `SELECT o.event_id, o.table_id, o.seq, o.seq <= COALESCE(p.last_published_seq, 0) AS published
           FROM outbox o LEFT JOIN outbox_progress p ON p.table_id = o.table_id
          WHERE o.type = 'TableRegistered' ORDER BY o.id`,
      );
      return rows.length === DEMO_TABLES.length &&
        rows.every((r: { published: boolean }) => r.published)
        ? rows
        : undefined;
    });

    collector = new KafkaCollector(TEST_KAFKA_BROKERS, topic);
    await collector.start();
    // Driven tables go on to start their shoes; this test is about registration.
    const events = await collector.waitForMatching(DEMO_TABLES.length, isRegistration);
    expect(events).toHaveLength(DEMO_TABLES.length);
    for (const table of DEMO_TABLES) {
      const received = events.filter((e) => e.key === table.id);
      expect(received).toHaveLength(1);
      const [{ envelope, headers }] = received;
      const row = published.find((r: { table_id: string }) => r.table_id === table.id);
      expect(envelope).toEqual({
        eventId: row.event_id,
        type: TABLE_REGISTERED,
        schemaVersion: 1,
        tableId: table.id,
        seq: 1,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        payload: {
          tableId: table.id,
          name: table.name,
          game: table.game,
          currency: table.currency,
          reason: 'new',
          configurationHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      });
      expect(headers['event-id']).toBe(row.event_id);
      expect(headers['event-type']).toBe(TABLE_REGISTERED);
    }

    const ready = await fetch(`${studio.url}/health/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.status).toBe('ok');
    expect(body.checks.kafka.status).toBe('ok');
    // The open answer gives statuses only; the details are the supervisors' (/health/ready/details).
    const details = await runReadiness(studio.app.get<ReadinessCheck[]>(READINESS_CHECKS));
    expect(details.checks.kafka.outbox).toMatchObject({ pending: 0 });
    expect(ready.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps its data across a restart and registers nothing twice', async () => {
    await studio!.close();
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
    });
    const [{ count }] = await studio.database.dataSource.query(
      `SELECT count(*)::int AS count FROM outbox WHERE type = 'TableRegistered'`,
    );
    expect(count).toBe(DEMO_TABLES.length);
  });

  it('announces a changed table configuration with the next sequence number', async () => {
    await studio!.close();
    const renamed = DEMO_TABLES.map((t) => (t.id === 'lux-1' ? { ...t, name: 'Lux Salon' } : t));
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: renamed,
    });
    const events = await collector!.waitForMatching(DEMO_TABLES.length + 1, isRegistration);
    const lux = events.filter((e) => e.key === 'lux-1').map((e) => e.envelope);
    expect(lux).toHaveLength(2);
    expect(lux[1].seq).toBeGreaterThan(lux[0].seq);
    expect(lux[1].payload).toMatchObject({ name: 'Lux Salon', reason: 'configuration-changed' });
  });

  it('writes its logs to test-artifacts/logs, never to the runner’s stdout', async () => {
    const marker = `log-probe-${Date.now()}`;
    const toStdout: string[] = [];
    const realWriteSync = fs.writeSync;
    const writeSync = jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, ...rest) => {
      if (fd === 1) toStdout.push(String(rest[0]));
      return (realWriteSync as (...a: unknown[]) => number)(fd, ...rest);
    }) as typeof fs.writeSync);
    const stdoutWrite = jest.spyOn(process.stdout, 'write');
    try {
      await studio!.close();
      studio = await startTestStudio({
        databaseUrl: db.url,
        kafkaBrokers: TEST_KAFKA_BROKERS,
        topicPrefix: prefix,
        env: { LOG_LEVEL: 'info', METRICS_TOKEN },
      });
      new Logger('LogProbe').warn(marker);
      await fetch(`${studio.url}/metrics`); // a refused request: an info line
    } finally {
      writeSync.mockRestore();
      stdoutWrite.mockRestore();
    }
    const file = readFileSync(serviceLogFile(expect.getState().testPath!), 'utf8');
    expect(file).toContain(marker);
    expect(file).toContain('"msg":"GET /metrics 401"');
    const serviceLines = [...toStdout, ...stdoutWrite.mock.calls.map((c) => String(c[0]))].filter(
      (text) => text.includes('live-dealer-studio') || text.includes(marker),
    );
    expect(serviceLines).toEqual([]);
    // Nest's route dump is debug: at info level the file has none of its lines.
    expect(file).not.toMatch(/RouterExplorer|Mapped \{/);
  });

  it('sends a browser that opens the root to the consoles', async () => {
    const root = await fetch(`${studio!.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console/');
  });

  it('serves prom-client metrics to METRICS_TOKEN only', async () => {
    expect((await fetch(`${studio!.url}/metrics`)).status).toBe(401);
    const wrong = { authorization: `Bearer ${'x'.repeat(40)}` };
    expect((await fetch(`${studio!.url}/metrics`, { headers: wrong })).status).toBe(401);
    const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
    const answer = await fetch(`${studio!.url}/metrics`, { headers });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = await answer.text();
    expect(text).toMatch(/^studio_outbox_pending_events \d+$/m);
    expect(text).toMatch(/^studio_kafka_publisher_connected 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    // The refused scrapes above were timed under their route pattern.
    expect(text).toMatch(
      /^studio_http_request_duration_seconds_count\{method="GET",route="\/metrics",status="401"\} [1-9]/m,
    );
  });

  it('answers liveness and reports a missing database as not ready', async () => {
    const live = await fetch(`${studio!.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ status: 'ok' });

    await studio!.database.dataSource.destroy();
    const ready = await fetch(`${studio!.url}/health/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.status).toBe('error');
    expect(body.checks.database.status).toBe('error');
    const details = await runReadiness(studio!.app.get<ReadinessCheck[]>(READINESS_CHECKS));
    expect(details.checks.database.message).toMatch(/database unreachable/);
  });
});
