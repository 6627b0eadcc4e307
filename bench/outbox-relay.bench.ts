/**
 * The outbox relay draining a 100,000-event backlog, against its floor measured in the same run: a
 * bare kafkajs producer (same broker, same partitions, acks=all, idempotent, one request in flight)
 * sending the same 100,000 messages (the very bytes the relay publishes, read beforehand) in the
 * same sends (the relay's batches, cut to stay under the broker's record-batch size limit).
 *
 * Needs a Kafka broker: `npm run bench -- outbox-relay` starts one of its own (or set
 * BENCH_KAFKA_BROKERS) and PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres); creates and drops a database of its own.
 * BENCH_EVENTS sets the backlog, BENCH_ROUNDS how many times floor and relay alternate (default
 * 3; the last line is the median), BENCH_RELAY_BATCH_SIZE the batch size (default: the service's
 * OUTBOX_BATCH_SIZE default). Asserts nothing.
 */
import 'reflect-metadata';
import { topicName } from '@studio/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { Client } from 'pg';
import { SystemClock } from '../src/clock/clock';
import { loadStudioConfig } from '../src/config/studio-config';
import { createStudioDataSource } from '../src/database/data-source.factory';
import { EVENT_PRODUCER_SETTINGS, KafkaEventPublisher } from '../src/kafka/kafka-event-publisher';
import type { OutboxRow } from '../src/outbox/outbox-envelope';
import { OutboxRelay, toBatch } from '../src/outbox/outbox-relay';
import { READ_SQL } from '../src/outbox/outbox-relay-store';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const BROKERS = process.env.BENCH_KAFKA_BROKERS ?? '127.0.0.1:19092';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TABLES = 12;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function withClient<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Payloads shaped like the game's events: mostly small, some bet lists and settlements. */
function payloadFor(i: number, tableId: string): Record<string, unknown> {
  const kind = i % 20;
  if (kind < 12) {
    return { tableId, card: { rank: 'Q', suit: 'hearts' }, target: { kind: 'player', box: i % 7 } };
  }
  if (kind < 18) {
    return {
      betId: randomUUID(),
      playerId: `player-${i}`,
      platformId: 'casino-a',
      spot: 'main',
      amount: { currency: 'EUR', minor: 100 * (i % 50) },
      sideBets: [{ kind: 'perfect-pairs', minor: 50 }],
    };
  }
  const entries = Array.from({ length: 12 }, (_, k) => ({
    playerId: `player-${i}-${k}`,
    betId: randomUUID(),
    outcome: k % 3 === 0 ? 'win' : 'lose',
    payout: { currency: 'EUR', minor: 250 * k },
  }));
  return { settled: entries, note: 'Ünïcode “quotes” and a \\ backslash' };
}

async function loadBacklog(url: string, topic: string): Promise<void> {
  await withClient(url, async (c) => {
    // The relay reads each registered table's pending rows: register the tables, with the seq
    // the writer would have left them at.
    await c.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash,
                                  last_event_seq, registered_at, updated_at)
       SELECT 'bench-table-' || t, 'Bench ' || t, 'baccarat', 'EUR', '{}', '', $1::bigint / $2 + (t < $1::bigint % $2)::int, now(), now()
         FROM generate_series(0, $2 - 1) t`,
      [EVENTS, TABLES],
    );
    const seq = new Array<number>(TABLES).fill(0);
    const occurred = Date.parse('2026-01-01T00:00:00Z');
    for (let start = 0; start < EVENTS; start += 5_000) {
      const rows = [];
      for (let i = start; i < Math.min(EVENTS, start + 5_000); i++) {
        const t = i % TABLES;
        const tableId = `bench-table-${t}`;
        seq[t] += 1;
        rows.push({
          event_id: randomUUID(),
          topic,
          table_id: tableId,
          round_id: i % 10 === 0 ? null : `round-${t}-${Math.floor(i / 500)}`,
          seq: seq[t],
          type: i % 20 < 12 ? 'CardDealt' : i % 20 < 18 ? 'BetAccepted' : 'BetsSettled',
          schema_version: 1,
          occurred_at: new Date(occurred + i).toISOString(),
          payload: payloadFor(i, tableId),
        });
      }
      await c.query(
        `INSERT INTO outbox (event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at, payload)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(event_id uuid, topic text, table_id text,
                round_id text, seq bigint, type text, schema_version integer, occurred_at timestamptz, payload jsonb)`,
        [JSON.stringify(rows)],
      );
    }
    await c.query('VACUUM ANALYZE outbox');
  });
}

/**
 * The floor: the same messages through a bare idempotent producer, in the very sends the relay
 * makes of them (its reads of `batchSize` rows, cut by bytes), to a topic with as many partitions.
 */
async function floor(
  rows: OutboxRow[],
  batchSize: number,
  prefix: string,
  partitions: number,
): Promise<number> {
  const kafka = new Kafka({
    clientId: 'relay-floor',
    brokers: [BROKERS],
    logLevel: logLevel.ERROR,
  });
  const admin = kafka.admin();
  await admin.connect();
  const topic = `${prefix}floor`;
  // Created by the first round; creating it again is refused (and logged as an error by kafkajs).
  if (!(await admin.listTopics()).includes(topic)) {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: partitions }],
    });
  }
  await admin.disconnect();
  // The relay's producer settings (idempotent, one request in flight).
  const producer = kafka.producer({
    ...EVENT_PRODUCER_SETTINGS,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const batches = [];
  for (let i = 0; i < rows.length; i += batchSize) {
    batches.push(...toBatch(rows.slice(i, i + batchSize)).sends.map((send) => send.messages));
  }
  const started = performance.now();
  for (const messages of batches) await producer.send({ topic, acks: -1, messages });
  const ms = performance.now() - started;
  await producer.disconnect();
  return ms;
}

async function main(): Promise<void> {
  const dbName = `relay_bench_${randomBytes(4).toString('hex')}`;
  const prefix = `bench.${randomBytes(3).toString('hex')}.`;
  await withClient(ADMIN_URL, (c) => c.query(`CREATE DATABASE ${dbName}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const config = loadStudioConfig({
    DATABASE_URL: url.toString(),
    KAFKA_BROKERS: BROKERS,
    KAFKA_TOPIC_PREFIX: prefix,
    LOG_LEVEL: 'error',
    ...(process.env.BENCH_RELAY_BATCH_SIZE
      ? { OUTBOX_BATCH_SIZE: process.env.BENCH_RELAY_BATCH_SIZE }
      : {}),
  });
  const batchSize = config.outbox.batchSize;
  const dataSource = createStudioDataSource({
    url: url.toString(),
    poolSize: 10,
    connectTimeoutMs: 5_000,
  });
  const topic = topicName('tableEvents', prefix);
  const publisher = new KafkaEventPublisher(config.kafka!);
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await loadBacklog(url.toString(), topic);
    const rows = await withClient(url.toString(), async (c) => {
      return (await c.query<OutboxRow>(READ_SQL, [EVENTS, [], []])).rows;
    });
    const bytes = toBatch(rows)
      .sends.flatMap((send) => send.messages)
      .reduce((n, m) => n + Buffer.byteLength(m.value), 0);

    await publisher.connect([topic]); // topic created and producer connected before the clock starts
    const rate = (ms: number) => Math.round(rows.length / (ms / 1000));
    const line = (label: string, relayMs: number, floorMs: number) =>
      `relay ${rows.length / 1000}k backlog${label} | project ${rate(relayMs)} events/s | ` +
      `floor ${rate(floorMs)} events/s | ratio ${(relayMs / floorMs).toFixed(2)} (relay time / floor time)`;
    // Floor and relay alternate, so a neighbour's load on a shared machine hits both alike.
    const rounds: Array<{ relayMs: number; floorMs: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      global.gc?.();
      let cpu = cpuMs();
      const floorMs = await floor(rows, batchSize, prefix, config.kafka!.eventPartitions);
      const floorCpu = cpuMs() - cpu;

      // The same backlog again: progress is per table, so forgetting it republishes everything.
      await dataSource.query('DELETE FROM outbox_progress');
      const relay = new OutboxRelay(dataSource, publisher, config.outbox, new SystemClock(), [
        topic,
      ]);
      global.gc?.();
      cpu = cpuMs();
      const started = performance.now();
      relay.start();
      while (relay.counters.publishedEvents < rows.length)
        await new Promise((r) => setTimeout(r, 5));
      const relayMs = performance.now() - started;
      const relayCpu = cpuMs() - cpu;
      await relay.stop();
      const pending = (await relay.lag()).pending;
      rounds.push({ relayMs, floorMs });

      console.log(line(ROUNDS > 1 ? `, round ${round}` : '', relayMs, floorMs));
      console.log(
        `  batch ${batchSize}, ${TABLES} tables, ${Math.round(bytes / rows.length)} B/message on average; ` +
          `project ${(relayMs / 1000).toFixed(2)} s wall, ${Math.round(relayCpu)} ms node CPU, ` +
          `${relay.counters.publishedBatches} batches, ${pending} left pending; ` +
          `floor ${(floorMs / 1000).toFixed(2)} s wall, ${Math.round(floorCpu)} ms node CPU`,
      );
    }
    if (ROUNDS > 1) {
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      const relayMs = median(rounds.map((r) => r.relayMs));
      const floorMs = median(rounds.map((r) => r.floorMs));
      const ratio = median(rounds.map((r) => r.relayMs / r.floorMs));
      console.log(
        `relay ${rows.length / 1000}k backlog, median of ${ROUNDS} | project ${rate(relayMs)} events/s | ` +
          `floor ${rate(floorMs)} events/s | ratio ${ratio.toFixed(2)} (median of the rounds' ratios)`,
      );
    }
  } finally {
    await publisher.disconnect().catch(() => undefined);
    if (dataSource.isInitialized) await dataSource.destroy();
    await withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
