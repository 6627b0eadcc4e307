/**
 * How long a consumer-group rebalance of the command intake takes on a rolling restart: one of two
 * consumers leaves (disconnect, which sends LeaveGroup) and the other must own every partition
 * again; then it comes back and both must own their share again. Commands on the moving
 * partitions wait that long, so it must stay well inside a 3 s betting window.
 *
 * Runs with the intake's own consumer settings (commandIntakeOptions) and, beside them, with
 * kafkajs's defaults (heartbeat 3 s, session 30 s, fetch wait 5 s), and prints
 * `project | kafkajs defaults | ratio` for the leave and for the join, median and max of
 * BENCH_REBALANCES (default 5) rounds each. Needs a Kafka broker (BENCH_KAFKA_BROKERS, default
 * 127.0.0.1:19092). Asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { Consumer, ConsumerConfig, Kafka, logLevel } from 'kafkajs';
import { loadStudioConfig } from '../src/config/studio-config';
import { commandIntakeOptions } from '../src/platform/command-intake.server';

const BROKERS = (process.env.BENCH_KAFKA_BROKERS ?? '127.0.0.1:19092').split(',');
const ROUNDS = Number(process.env.BENCH_REBALANCES ?? '5');
const PARTITIONS = 6;

type Settings = Pick<ConsumerConfig, 'sessionTimeout' | 'heartbeatInterval' | 'maxWaitTimeInMs'>;

function projectSettings(): Settings {
  const config = loadStudioConfig({ KAFKA_BROKERS: BROKERS.join(','), DATABASE_URL: '' });
  const consumer = commandIntakeOptions(config.kafka!, () => false).consumer!;
  return {
    sessionTimeout: consumer.sessionTimeout,
    heartbeatInterval: consumer.heartbeatInterval,
    maxWaitTimeInMs: consumer.maxWaitTimeInMs,
  };
}

/** A consumer that reports each assignment it gets (the partitions it owns after a rebalance). */
async function member(kafka: Kafka, groupId: string, topic: string, settings: Settings) {
  const consumer: Consumer = kafka.consumer({ groupId, ...settings });
  let owned = -1;
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    owned = (event.payload.memberAssignment[topic] ?? []).length;
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({ eachBatch: async () => undefined });
  return { consumer, owns: () => owned };
}

/** Polled every 10 ms: a condition over several members' assignments. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

async function measure(
  label: string,
  settings: Settings,
): Promise<{ leave: number[]; join: number[] }> {
  const kafka = new Kafka({
    clientId: 'bench-rebalance',
    brokers: BROKERS,
    logLevel: logLevel.NOTHING,
  });
  const topic = `bench.rebalance.${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    topics: [{ topic, numPartitions: PARTITIONS }],
    waitForLeaders: true,
  });
  const groupId = `${topic}.group`;
  const stays = await member(kafka, groupId, topic, settings);
  let leaves = await member(kafka, groupId, topic, settings);
  const shared = () =>
    stays.owns() > 0 && leaves.owns() > 0 && stays.owns() + leaves.owns() === PARTITIONS;
  await until(shared);
  const leave: number[] = [];
  const join: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let started = performance.now();
    const allMine = until(() => stays.owns() === PARTITIONS);
    await leaves.consumer.disconnect();
    await allMine;
    leave.push(performance.now() - started);
    started = performance.now();
    leaves = await member(kafka, groupId, topic, settings);
    await until(shared);
    join.push(performance.now() - started);
  }
  await leaves.consumer.disconnect();
  await stays.consumer.disconnect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  console.log(`${label}: ${JSON.stringify(settings)}`);
  return { leave, join };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${Math.round(x)} ms`;

async function main(): Promise<void> {
  const project = await measure('project', projectSettings());
  const defaults = await measure('kafkajs defaults', {
    sessionTimeout: 30_000,
    heartbeatInterval: 3_000,
    maxWaitTimeInMs: 5_000,
  });
  for (const phase of ['leave', 'join'] as const) {
    const p = project[phase];
    const d = defaults[phase];
    console.log(
      `rebalance on ${phase} (median of ${ROUNDS}) | ${ms(median(p))} | ${ms(median(d))} | ${(median(p) / median(d)).toFixed(2)}`,
    );
    console.log(
      `rebalance on ${phase} (max of ${ROUNDS}) | ${ms(Math.max(...p))} | ${ms(Math.max(...d))} | ${(Math.max(...p) / Math.max(...d)).toFixed(2)}`,
    );
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
