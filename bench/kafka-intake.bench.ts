/**
 * Kafka round trip of one Infinite Blackjack round with many players (default 100,000):
 * every player bets, then every player decides in one decision window, all as commands on the
 * commands topic. A command counts as done when its answer is on the results topic (the answer is
 * published only after the command's transition is committed in PostgreSQL). The outbox relay is
 * held during each phase (the floors publish no events) and released after it: its throughput
 * (events/s) on the events the phase produced is printed on its own line.
 *
 * Needs a Kafka broker: `npm run bench -- kafka` starts one of its own (or set BENCH_KAFKA_BROKERS)
 * and PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres);
 * creates and drops a database of its own. BENCH_PLAYERS sets the player count,
 * BENCH_COMMAND_BATCH_SIZE the intake's batch size (KAFKA_COMMAND_BATCH_SIZE),
 * BENCH_COMMAND_CONCURRENCY the partitions it reads at once (KAFKA_COMMAND_CONCURRENCY), BENCH_FLOORS=0 skips the
 * floors (to profile the project alone). Asserts nothing.
 *
 * Runs 10,000 and 100,000 players (BENCH_PLAYERS: a comma-separated list) and prints, for bets
 * and for decisions, `project | floor | ratio` against floors measured in the same run
 * (intake-floors.ts): the bare kafkajs round of the same messages storing each batch it reads by
 * a COPY of its commands as one row each before answering it; the bare round alone and the COPY
 * alone are printed beside it, with the ratio to the larger of those two. Then the cost per command of
 * each player count. An uncounted scenario of 10,000 players runs first (BENCH_WARM_UP_PLAYERS).
 * A player count listed more than once (BENCH_PLAYERS=100000,100000,100000) is also printed as the
 * median of its runs (intake-report.ts).
 *
 * The players are spread over BENCH_PLATFORMS casino platforms (default 20): each platform sends
 * its players' commands on its own commands topic and reads its answers on its own results topic
 * (contract 2.0), so the intake routes every command by platform. BENCH_PLATFORMS=0 sends on the
 * v1 topics (the `default` platform) as before. The floors use the same topics (a commands and a
 * results topic per platform, with as many partitions): the floor judged against does the same
 * Kafka work as the project, so the ratio shows what routing by platform adds beyond it. The stored
 * round on one commands and one results topic is printed beside it (what the topics themselves
 * cost).
 */
import 'reflect-metadata';
import type { CommandMessage, CommandResultMessage } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { PlatformKafkaClient } from '../apps/platform-simulator/platform-client';
import { startStudio } from '../src/bootstrap';
import { loadStudioConfig } from '../src/config/studio-config';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { CloseBettingCommand } from '../src/use-cases/close-betting/close-betting.command';
import { CloseBetting } from '../src/use-cases/close-betting/close-betting.use-case';
import { copyFloor, copyStore, kafkaRoundFloor } from './intake-floors';
import { BenchPlatforms } from './intake-platforms';
import { Measure, printMeasure, printSummary } from './intake-report';

const PLAYER_COUNTS = (process.env.BENCH_PLAYERS ?? '10000,100000').split(',').map(Number);
const BROKERS = process.env.BENCH_KAFKA_BROKERS ?? '127.0.0.1:19092';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SEND_CHUNK = 1_000;
/** Bets placed (and answered) before the measured phases, to warm the project up. */
const WARM_UP = 2_000;
const BATCH_SIZE = process.env.BENCH_COMMAND_BATCH_SIZE ?? '5000';
const TABLE = 'ibj-bench';
/** BENCH_FLOORS=0 skips the floors (to profile the project alone); the ratio is then not printed. */
const FLOORS = process.env.BENCH_FLOORS !== '0';
/**
 * Players of a first, uncounted scenario (BENCH_WARM_UP_PLAYERS, 0 for none): the measured ones then
 * run in a process whose code is compiled, as a studio's is an hour into its day, and as the floors
 * are (they run after the project). Without it the first scenario pays V8's warm-up alone.
 */
const WARM_UP_PLAYERS = Number(process.env.BENCH_WARM_UP_PLAYERS ?? '10000');
/** Casino platforms the players are spread over (0: the v1 topics of the `default` platform). */
const PLATFORMS = Number(process.env.BENCH_PLATFORMS ?? '20');
/** Partitions of each platform's topics (the project's own topics keep KAFKA_COMMAND_PARTITIONS). */
const PLATFORM_PARTITIONS = Number(process.env.BENCH_PLATFORM_PARTITIONS ?? '3');

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function scenario(PLAYERS: number, measures: Measure[]): Promise<void> {
  const dbName = `studio_bench_${randomBytes(4).toString('hex')}`;
  const prefix = `bench.${randomBytes(3).toString('hex')}.`;
  await admin(`CREATE DATABASE ${dbName}`);
  const dir = mkdtempSync(join(tmpdir(), 'kafka-bench-'));
  const tablesFile = join(dir, 'tables.json');
  writeFileSync(
    tablesFile,
    JSON.stringify([
      {
        id: TABLE,
        name: 'IBJ bench',
        game: 'infinite-blackjack',
        currency: 'EUR',
        bettingWindowMs: 600_000,
        decisionWindowMs: 600_000,
        roundIntervalMs: 0,
        scanner: {
          wireFormat: 'studio-framed-v1',
          virtualShoe: {
            seed: 5,
            intervalMs: 3_600_000,
            misreadRate: 0,
            heartbeatIntervalMs: 60_000,
          },
        },
      },
    ]),
  );
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const platforms =
    PLATFORMS > 0 ? new BenchPlatforms(BROKERS, prefix, PLATFORMS, PLATFORM_PARTITIONS) : undefined;
  await platforms?.createTopics();
  const studio = await startStudio(
    loadStudioConfig({
      DATABASE_URL: url.toString(),
      DATABASE_POOL_SIZE: '10',
      PORT: '0',
      LOG_LEVEL: 'error',
      TABLES_FILE: tablesFile,
      KAFKA_BROKERS: BROKERS,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_COMMAND_GROUP_ID: `bench-${prefix}`,
      VIRTUAL_DEALER_PACE_MS: '0',
      OUTBOX_BATCH_SIZE: '1000',
      OUTBOX_POLL_INTERVAL_MS: '50',
      KAFKA_COMMAND_BATCH_SIZE: BATCH_SIZE,
      ...(process.env.BENCH_COMMAND_CONCURRENCY
        ? { KAFKA_COMMAND_CONCURRENCY: process.env.BENCH_COMMAND_CONCURRENCY }
        : {}),
    }),
  );
  // Answers are counted, not kept: the floor's platform consumer keeps none either.
  const client = new PlatformKafkaClient({
    brokers: [BROKERS],
    topicPrefix: prefix,
    keepResults: false,
    // With platforms, the answers are on their own results topics (read by `platforms`).
    ...(platforms ? { read: { results: false } } : {}),
  });
  // Commands (player i's on its platform's topic) and their answers, whichever way they travel.
  const sendMany = (commands: CommandMessage[], players: number[]) =>
    platforms ? platforms.sendMany(commands, players) : client.sendMany(commands);
  try {
    await client.start();
    await platforms?.start();
    let answered = 0;
    let rejected = 0;
    const rejectionCodes = new Map<string, number>();
    const onResult = (r: CommandResultMessage) => {
      answered += 1;
      if (r.status === 'rejected') {
        rejected += 1;
        rejectionCodes.set(r.code ?? '?', (rejectionCodes.get(r.code ?? '?') ?? 0) + 1);
      }
    };
    if (platforms) platforms.onResult(onResult);
    else client.onResult(onResult);
    const roundId = await (async () => {
      await until(
        'betting to open',
        () => client.events.some((e) => e.envelope.type === 'BettingOpened'),
        120_000,
      );
      return client.events.find((e) => e.envelope.type === 'BettingOpened')!.envelope.roundId!;
    })();

    const tableVersion = async () =>
      Number(
        (
          await studio.database.dataSource.query(
            `SELECT version FROM table_state WHERE table_id = $1`,
            [TABLE],
          )
        )[0].version,
      );
    const phase = async (
      label: string,
      kind: 'bets' | 'decisions',
      make: (i: number) => CommandMessage,
    ) => {
      const before = answered;
      const version0 = await tableVersion();
      const rejectedBefore = rejected;
      const t0 = performance.now();
      const c0 = cpu();
      for (let i = 0; i < PLAYERS; i += SEND_CHUNK) {
        const chunk: CommandMessage[] = [];
        const players: number[] = [];
        for (let j = i; j < Math.min(PLAYERS, i + SEND_CHUNK); j += 1) {
          chunk.push(make(j));
          players.push(j);
        }
        await sendMany(chunk, players);
      }
      const sentMs = performance.now() - t0;
      await until(`${label} answers`, () => answered - before >= PLAYERS, 3_600_000);
      const ms = performance.now() - t0;
      console.log(
        `${label}: ${PLAYERS} commands sent in ${(sentMs / 1000).toFixed(2)} s; all accepted-or-rejected ` +
          `and persisted (answer on the results topic) after ${(ms / 1000).toFixed(2)} s = ` +
          `${Math.round(PLAYERS / (ms / 1000))} commands/s; rejected ${rejected - rejectedBefore}; ` +
          `CPU of this process ${(cpu() - c0).toFixed(0)} ms; ` +
          `${(await tableVersion()) - version0} table transactions (intake batches of up to ${BATCH_SIZE})`,
      );
      if (!FLOORS) return;
      // The floors of the same commands, after the project's run (not competing with it).
      const messages = Array.from({ length: PLAYERS }, (_, i) => make(i));
      const topology =
        PLATFORMS > 0 ? { platforms: PLATFORMS, partitions: PLATFORM_PARTITIONS } : undefined;
      const kafka = await kafkaRoundFloor(BROKERS, messages, SEND_CHUNK, undefined, topology);
      const pg = new Client({ connectionString: url.toString() });
      await pg.connect();
      const { copy, stored, storedOneTopic } = await (async () => {
        const copy = await copyFloor(pg, kind, roundId, TABLE, PLAYERS);
        // Each stored round into a fresh table (the rows' keys are unique).
        const storedRound = async (on?: typeof topology) => {
          const store = await copyStore(pg, kind);
          try {
            return await kafkaRoundFloor(BROKERS, messages, SEND_CHUNK, store.store, on);
          } finally {
            await store.drop();
          }
        };
        const stored = await storedRound(topology);
        const storedOneTopic = topology ? await storedRound() : undefined;
        return { copy, stored, storedOneTopic };
      })().finally(() => pg.end());
      measures.push({
        label,
        players: PLAYERS,
        project: ms / 1000,
        stored,
        storedOneTopic,
        kafka,
        copy,
      });
      printMeasure(measures[measures.length - 1], PLATFORMS);
    };

    // The relay is held during each phase, as the floors publish no events: a phase measures
    // commands accepted, persisted and answered; the events piled up meanwhile are then relayed
    // in full batches and the relay's throughput printed on its own line.
    const relay = studio.app.get(OutboxRelay);
    await relay.stop();
    // Warm-up, not measured: the floors run warm (after the project, in the same process), so
    // the project's first batches must not carry its code's compilation and its connections'
    // first statements. Players of their own, who then play along automatically.
    const warm = answered;
    await sendMany(
      Array.from({ length: WARM_UP }, (_, i) => ({
        commandId: `warm-up-${i}`,
        type: 'PlaceBet' as const,
        schemaVersion: 1 as const,
        tableId: TABLE,
        roundId,
        playerId: `warm-up-${i}`,
        betType: 'main',
        amount: 1_000,
      })),
      Array.from({ length: WARM_UP }, (_, i) => i),
    );
    await until('the warm-up answers', () => answered - warm >= WARM_UP, 120_000);
    await phase('bets', 'bets', (i) => ({
      commandId: `bet-${i}`,
      type: 'PlaceBet',
      schemaVersion: 1,
      tableId: TABLE,
      roundId,
      playerId: `p${i}`,
      betType: 'main',
      amount: 1_000,
    }));
    await drainRelay(relay, 'bets');
    await studio.app
      .get(CloseBetting)
      .execute(CloseBettingCommand.create({ tableId: TABLE, by: 'bench' }));
    await until(
      'the decision window',
      () => client.events.some((e) => e.envelope.type === 'DecisionWindowOpened'),
      600_000,
    );
    await relay.stop();
    await phase('decisions (one window)', 'decisions', (i) => ({
      commandId: `decide-${i}`,
      type: 'Decide',
      schemaVersion: 1,
      tableId: TABLE,
      roundId,
      playerId: `p${i}`,
      action: i % 2 === 0 ? 'stand' : 'hit',
    }));
    await drainRelay(relay, 'decisions');
    if (rejectionCodes.size > 0) console.log(`rejections: ${JSON.stringify([...rejectionCodes])}`);

    const c = relay.counters;
    console.log(
      `relay over the whole run: ${c.publishedEvents} events in ${c.publishedBatches} batches` +
        `, ${(c.publishMillis / 1000).toFixed(2)} s publishing`,
    );
    const first = client.events[0];
    const last = client.events[client.events.length - 1];
    console.log(
      `consumer: ${client.events.length} events received; first-to-last ` +
        `${((Date.parse(last.envelope.occurredAt) - Date.parse(first.envelope.occurredAt)) / 1000).toFixed(2)} s of event time`,
    );
  } finally {
    await platforms?.stop();
    await client.stop();
    await studio.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Releases the held relay and prints how fast it publishes the events piled up. */
async function drainRelay(relay: OutboxRelay, after: string): Promise<void> {
  const pending = (await relay.lag()).pending;
  const before = { ...relay.counters };
  const drain0 = performance.now();
  relay.start();
  while ((await relay.lag()).pending > 0) await new Promise((r) => setTimeout(r, 10));
  const drainMs = performance.now() - drain0;
  console.log(
    `relay after the ${after}: ${pending} pending events published in ${(drainMs / 1000).toFixed(2)} s = ` +
      `${Math.round(pending / (drainMs / 1000))} events/s wall (${relay.counters.publishedBatches - before.publishedBatches} batches; ` +
      `each: read from the outbox, send with acks=all, mark published)`,
  );
}

async function main(): Promise<void> {
  if (WARM_UP_PLAYERS > 0) {
    console.log(`--- warm-up scenario, ${WARM_UP_PLAYERS} players (not counted)`);
    await scenario(WARM_UP_PLAYERS, []);
    console.log('--- measured scenarios');
  }
  const measures: Measure[] = [];
  for (const players of PLAYER_COUNTS) await scenario(players, measures);
  printSummary(measures, PLATFORMS);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
