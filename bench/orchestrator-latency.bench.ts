/**
 * Frame-to-commit latency of the round orchestrator: Pok Deng tables deal at once, each fed by its
 * own socat pseudo-terminal pair; a sample is the time from writing one studio-framed-v1 card
 * frame on the shoe end to the commit of the table transition that processed it (its round events
 * and outbox rows in PostgreSQL). Three phases on one service: 20 tables, 50 tables (one card
 * every BENCH_GAP_MS after the previous commit, per table), then 50 tables flat out (saturation).
 * After each phase the floor runs in the same database (bench/transition-floor.ts): plain pg
 * clients, one per table, writing the same rows per transition at the same pace, with the
 * statements of the write path named by BENCH_FLOOR (`function`: one call per transition, what the
 * service does; `statements`: the 11 round trips it did before). Needs the PostgreSQL server
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres); creates and drops a
 * database of its own. Prints `project | floor | ratio` lines; asserts nothing.
 */
import 'reflect-metadata';
import { CardCode } from '@studio/cards';
import { StudioFramedV1Encoder } from '@studio/scanner-protocol';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SerialPort } from 'serialport';
import { shuffledShoe } from '@studio/virtual-shoe';
import { startStudio } from '../src/bootstrap';
import { loadStudioConfig } from '../src/config/studio-config';
import { PtyPair } from '@studio/virtual-shoe';
import { TableRuntimeRegistry } from '../src/tables/table-runtime.registry';
import { FloorRun, FloorVariant, prepareFloor, runFloor } from './transition-floor';

const TABLES = Number(process.env.BENCH_TABLES ?? 20);
const MANY_TABLES = Number(process.env.BENCH_MANY_TABLES ?? 50);
const CARDS_PER_TABLE = Number(process.env.BENCH_CARDS ?? 100);
const SATURATION_CARDS = Number(process.env.BENCH_SATURATION_CARDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const FLOOR = (process.env.BENCH_FLOOR ?? 'function') as FloorVariant;
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 20);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Phase {
  samples: number[];
  seconds: number;
}

const pct = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function line(label: string, project: number, floor: number, unit: string): string {
  return `${label.padEnd(34)} ${project.toFixed(2)} ${unit} | ${floor.toFixed(2)} ${unit} | ${(project / floor).toFixed(2)}`;
}

function latencyLines(tables: number, project: Phase, floor: FloorRun): string[] {
  return [0.5, 0.99].map((q) =>
    line(
      `p${q * 100} frame->commit, ${tables} tables`,
      pct(project.samples, q),
      pct(floor.samples, q),
      'ms',
    ),
  );
}

async function main(): Promise<void> {
  const dbName = `studio_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const dir = mkdtempSync(join(tmpdir(), 'orchestrator-bench-'));
  const ptys: PtyPair[] = [];
  const writers: SerialPort[] = [];
  let studio: Awaited<ReturnType<typeof startStudio>> | undefined;
  const all = Math.max(TABLES, MANY_TABLES);
  try {
    const tables = [];
    for (let t = 0; t < all; t += 1) {
      const pty = await PtyPair.start(dir, { shoe: `t${t}.shoe`, reader: `t${t}.reader` });
      ptys.push(pty);
      tables.push({
        id: `bench-${t}`,
        name: `Bench ${t}`,
        game: 'pok-deng',
        currency: 'THB',
        bettingWindowMs: 1_000,
        roundIntervalMs: 0,
        scanner: {
          wireFormat: 'studio-framed-v1',
          path: pty.readerPath,
          baudRate: 115200,
          heartbeatTimeoutMs: null,
        },
      });
    }
    const tablesFile = join(dir, 'tables.json');
    writeFileSync(tablesFile, JSON.stringify(tables));
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    studio = await startStudio(
      loadStudioConfig({
        DATABASE_URL: url.toString(),
        // The floor's clients share as many connections (the server's limit is shared).
        DATABASE_POOL_SIZE: String(CONNECTIONS),
        PORT: '0',
        // The service's default lease TTL unless BENCH_LEASE_TTL_MS says otherwise: renewals no
        // longer wait behind the tables' commits (migration LeaseFenceKeyShare), so the default
        // holds flat out (measured: 10 s and 60 s give the same spread of rates).
        ...(process.env.BENCH_LEASE_TTL_MS
          ? { TABLE_LEASE_TTL_MS: process.env.BENCH_LEASE_TTL_MS }
          : {}),
        LOG_LEVEL: 'error',
        TABLES_FILE: tablesFile,
      }),
    );
    const registry = studio.app.get(TableRuntimeRegistry);
    const waiting = new Map<string, () => void>();
    registry.onTransition((tableId, outcome) => {
      for (const e of outcome.writes.events) {
        if (e.type === 'ReadingProcessed') waiting.get(`${tableId}:${e.payload.sequence}`)?.();
      }
    });
    await new Promise((r) => setTimeout(r, 1_000)); // readers connect
    for (const pty of ptys) {
      const port = new SerialPort({ path: pty.shoePath, baudRate: 115200, autoOpen: false });
      await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(e) : resolve())));
      writers.push(port);
    }
    const encoder = new StudioFramedV1Encoder();
    const shoes = writers.map((_, t) => shuffledShoe(1000 + t, 8) as CardCode[]);
    const dealt = writers.map(() => 0);
    let lost = 0;
    const deal = async (count: number, cards: number, gapMs: number): Promise<Phase> => {
      const samples: number[] = [];
      const started = process.hrtime.bigint();
      await Promise.all(
        writers.slice(0, count).map(async (port, t) => {
          for (let k = 0; k < cards; k += 1) {
            const i = (dealt[t] += 1);
            const committed = new Promise<void>((resolve) =>
              waiting.set(`bench-${t}:${i}`, resolve),
            );
            const frame = Buffer.from(encoder.encode({ kind: 'card', code: shoes[t][i - 1] }, i));
            const t0 = process.hrtime.bigint();
            port.write(frame);
            // A transition that failed (logged by its table) never commits: counted, not awaited.
            const ok = await Promise.race([
              committed.then(() => true),
              new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
            ]);
            if (ok) samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
            else lost += 1;
            waiting.delete(`bench-${t}:${i}`);
            if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
          }
        }),
      );
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      return { samples: samples.sort((a, b) => a - b), seconds };
    };
    const floorTables = await prepareFloor(url.toString(), 'f', all, CONNECTIONS);
    let floorN = 0;
    const floor = async (count: number, cards: number, gapMs: number) => {
      const run = await runFloor(floorTables.tables.slice(0, count), FLOOR, cards, gapMs, floorN);
      floorN += cards;
      return run;
    };
    try {
      const p20 = await deal(TABLES, CARDS_PER_TABLE, GAP_MS);
      const f20 = await floor(TABLES, CARDS_PER_TABLE, GAP_MS);
      const p50 = await deal(MANY_TABLES, CARDS_PER_TABLE, GAP_MS);
      const f50 = await floor(MANY_TABLES, CARDS_PER_TABLE, GAP_MS);
      const pSat = await deal(MANY_TABLES, SATURATION_CARDS, 0);
      const fSat = await floor(MANY_TABLES, SATURATION_CARDS, 0);
      const [{ events }] = (await studio.database.dataSource.query(
        `SELECT count(*)::int AS events FROM round_events WHERE table_id LIKE 'bench-%'`,
      )) as Array<{ events: number }>;
      console.log(
        `orchestrator frame-to-commit latency over socat ptys; floor: plain pg, one client per table over ${CONNECTIONS} connections (as the service), write path "${FLOOR}"`,
      );
      console.log(
        `  ${CARDS_PER_TABLE} card frames per table ${GAP_MS} ms after the previous commit; saturation: ${SATURATION_CARDS} per table back to back; ${events} round events`,
      );
      if (lost > 0) console.log(`  ${lost} card frames never committed (see the log)`);
      console.log(`measure                            project | floor | ratio`);
      for (const l of latencyLines(TABLES, p20, f20)) console.log(l);
      for (const l of latencyLines(MANY_TABLES, p50, f50)) console.log(l);
      console.log(
        line(
          `p99 frame->commit, ${MANY_TABLES} tables flat out`,
          pct(pSat.samples, 0.99),
          pct(fSat.samples, 0.99),
          'ms',
        ),
      );
      const rate = (r: Phase) => r.samples.length / r.seconds;
      console.log(
        `${`transitions/s, ${MANY_TABLES} tables flat out`.padEnd(34)} ${rate(pSat).toFixed(0)} /s | ${rate(fSat).toFixed(0)} /s | ${(rate(pSat) / rate(fSat)).toFixed(2)}`,
      );
    } finally {
      await floorTables.close();
    }
  } finally {
    for (const w of writers) await new Promise((r) => w.close(() => r(undefined)));
    await studio?.close();
    for (const pty of ptys) await pty.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
