/**
 * Frame-to-commit latency of the round orchestrator: 20 Pok Deng tables deal at once, each fed by
 * its own socat pseudo-terminal pair; a sample is the time from writing one studio-framed-v1 card
 * frame on the shoe end to the commit of the table transition that processed it (its round events
 * and outbox rows in PostgreSQL). Needs the PostgreSQL server (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres); creates and drops a database of its own.
 * Prints p50/p95/p99/max and throughput; asserts nothing.
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

const TABLES = Number(process.env.BENCH_TABLES ?? 20);
const CARDS_PER_TABLE = Number(process.env.BENCH_CARDS ?? 150);
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

async function main(): Promise<void> {
  const dbName = `studio_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const dir = mkdtempSync(join(tmpdir(), 'orchestrator-bench-'));
  const ptys: PtyPair[] = [];
  const writers: SerialPort[] = [];
  let studio: Awaited<ReturnType<typeof startStudio>> | undefined;
  try {
    const tables = [];
    for (let t = 0; t < TABLES; t += 1) {
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
        DATABASE_POOL_SIZE: '20',
        PORT: '0',
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
    const samples: number[] = [];
    const started = process.hrtime.bigint();
    await Promise.all(
      writers.map(async (port, t) => {
        const cards: CardCode[] = shuffledShoe(1000 + t, 8);
        for (let i = 1; i <= CARDS_PER_TABLE; i += 1) {
          const committed = new Promise<void>((resolve) => waiting.set(`bench-${t}:${i}`, resolve));
          const frame = Buffer.from(encoder.encode({ kind: 'card', code: cards[i - 1] }, i));
          const t0 = process.hrtime.bigint();
          port.write(frame);
          await committed;
          samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
          waiting.delete(`bench-${t}:${i}`);
          await new Promise((r) => setTimeout(r, GAP_MS));
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    samples.sort((a, b) => a - b);
    const p = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
    const [{ events }] = (await studio.database.dataSource.query(
      `SELECT count(*)::int AS events FROM round_events`,
    )) as Array<{ events: number }>;
    console.log(
      `orchestrator frame-to-commit latency, ${TABLES} tables dealing at once over socat ptys`,
    );
    console.log(
      `  samples          ${samples.length} (${CARDS_PER_TABLE} card frames per table, ${GAP_MS} ms apart)`,
    );
    console.log(`  p50              ${p(0.5).toFixed(2)} ms`);
    console.log(`  p95              ${p(0.95).toFixed(2)} ms`);
    console.log(`  p99              ${p(0.99).toFixed(2)} ms`);
    console.log(`  max              ${samples[samples.length - 1].toFixed(2)} ms`);
    console.log(
      `  throughput       ${(samples.length / seconds).toFixed(0)} readings/s committed (${events} round events)`,
    );
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
