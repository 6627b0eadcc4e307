/**
 * HTTP platform commands against a running service: bets, then decisions of one decision window,
 * on one Infinite Blackjack table, at 1, 10 and 50 connections (BENCH_CONNECTIONS), each request
 * a new command id and player, answered once its command is committed in PostgreSQL. The service
 * runs as `npm start` runs it (dist/src/main.js, a process of its own, no Kafka); autocannon
 * drives it from this process with keep-alive connections. Beside each figure, the floor measured
 * in the same run with the same connections and requests (bench/http-floor.ts): a plain
 * `node:http` server with a `pg` pool of the same size, one `INSERT … ON CONFLICT` per command.
 *
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres);
 * creates and drops a database of its own. BENCH_REQUESTS sets the requests per phase for
 * 1,10,50 connections. Prints `project | floor | ratio` lines (throughput, p50, p99), and under
 * each the server process's CPU time per request beside the floor's (all its threads, from
 * /proc: on a shared machine steadier than a rate, and it tells a server that is short of CPU from
 * one that waits for its commits); asserts nothing.
 */
import autocannon from 'autocannon';
import { ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
const REQUESTS = (process.env.BENCH_REQUESTS ?? '500,3000,5000').split(',').map(Number);
const WARM_UP = 500;
const POOL_SIZE = 10;
const TABLE = 'ibj-http';
const KEY = `bench-${randomBytes(8).toString('hex')}`;
const PASSWORD = `Bench-${randomBytes(12).toString('hex')}`;
const ROOT = resolve(__dirname, '..', '..');

type Kind = 'bets' | 'decisions';

interface Figure {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of the server process (all its threads) per request, µs: steadier than a rate. */
  cpuPerRequest: number;
}

/** A process's CPU time so far, ms (Linux: utime + stime in clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function admin(url: string, sql: string, params: unknown[] = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
}

/** The command each request of a phase sends: a new command id and player per request. */
function command(kind: Kind, roundId: string, player: string): Record<string, unknown> {
  return kind === 'bets'
    ? { commandId: `bet-${player}`, roundId, playerId: player, betType: 'main', amount: 1_000 }
    : { commandId: `decide-${player}`, roundId, playerId: player, action: 'stand' };
}

/** `amount` requests over `connections` keep-alive connections; players `${tag}-0…`. */
async function load(
  base: string,
  kind: Kind,
  roundId: string,
  tag: string,
  connections: number,
  amount: number,
  serverPid?: number,
): Promise<Figure> {
  const cpuBefore = cpuMs(serverPid);
  let next = 0;
  let refused = 0;
  // Throughput from the last answer's time: autocannon notices that `amount` is reached only at
  // its next one-second tick, so its own duration is rounded up to whole seconds.
  let lastAnswerAt = 0;
  const startedAt = performance.now();
  const result = await autocannon({
    url: base,
    connections,
    amount,
    timeout: 60,
    requests: [
      {
        method: 'POST',
        path: `/platform/tables/${TABLE}/${kind}`,
        headers: { 'content-type': 'application/json', 'x-platform-key': KEY },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify(command(kind, roundId, `${tag}-${next++}`)),
        }),
        onResponse: (status, body) => {
          lastAnswerAt = performance.now();
          if (status !== 200 || !body.includes('"accepted":true')) {
            if (refused++ === 0) console.log(`  first refusal: ${status} ${body.slice(0, 200)}`);
          }
        },
      },
    ],
  });
  return {
    perSecond: result.requests.total / ((lastAnswerAt - startedAt) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: refused + result.errors + result.timeouts,
    cpuPerRequest: ((cpuMs(serverPid) - cpuBefore) * 1000) / result.requests.total,
  };
}

function print(label: string, project: Figure, floor: Figure): void {
  const f = (x: Figure) =>
    `${Math.round(x.perSecond)}/s p50 ${x.p50.toFixed(1)} ms p99 ${x.p99.toFixed(1)} ms` +
    (x.errors > 0 ? ` (${x.errors} not accepted)` : '');
  console.log(
    `${label.padEnd(26)} | project ${f(project)} | floor ${f(floor)} | ratio ` +
      `${(floor.perSecond / project.perSecond).toFixed(2)} (throughput), ` +
      `${(project.p99 / Math.max(floor.p99, 0.1)).toFixed(2)} (p99)`,
  );
  console.log(
    `${''.padEnd(26)} | server CPU per request: project ${Math.round(project.cpuPerRequest)} µs | ` +
      `floor ${Math.round(floor.cpuPerRequest)} µs | ratio ` +
      `${(project.cpuPerRequest / floor.cpuPerRequest).toFixed(2)}`,
  );
}

async function startService(url: string, tablesFile: string) {
  const port = await freePort();
  // BENCH_CPU_PROFILE=<folder>: the service writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      TABLES_FILE: tablesFile,
      PLATFORM_API_KEYS: KEY,
      // The path's speed, not the per-platform limit (2,000 requests/s by default) is measured.
      PLATFORM_HTTP_RATE_LIMIT: '1000000',
      VIRTUAL_DEALER_PACE_MS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  child.once('exit', (code) => code && console.error(`the service exited with ${code}`));
  // Liveness answers 200 `starting` while the service starts: wait for `ok`.
  await until('the service', async () => {
    const live = await fetch(`${base}/health/live`);
    return live.ok && ((await live.json()) as { status: string }).status === 'ok' ? 1 : undefined;
  });
  return { child, base };
}

async function event(url: string, type: string): Promise<string> {
  return until(type, async () => {
    const rows = await admin(
      url,
      `SELECT round_id FROM round_events WHERE table_id = $1 AND type = $2 ORDER BY id DESC LIMIT 1`,
      [TABLE, type],
    );
    return rows[0]?.round_id as string | undefined;
  });
}

async function closeBetting(base: string, url: string): Promise<void> {
  const add = spawn(
    process.execPath,
    [join(ROOT, 'dist/src/auth/add-user.js'), 'bench-supervisor', 'supervisor'],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: url, STUDIO_USER_PASSWORD: PASSWORD },
      stdio: 'inherit',
    },
  );
  await new Promise((ok) => add.once('exit', ok));
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench-supervisor', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const closed = await fetch(`${base}/tables/${TABLE}/close-betting`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!closed.ok) throw new Error(`close-betting: ${closed.status} ${await closed.text()}`);
}

async function main(): Promise<void> {
  const dbName = `studio_bench_${randomBytes(4).toString('hex')}`;
  await admin(ADMIN_URL, `CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const dir = mkdtempSync(join(tmpdir(), 'http-bench-'));
  const tablesFile = join(dir, 'tables.json');
  writeFileSync(
    tablesFile,
    JSON.stringify([
      {
        id: TABLE,
        name: 'IBJ HTTP bench',
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
  const project = new Map<string, Figure>();
  const floor = new Map<string, Figure>();
  let service: ChildProcess | undefined;
  let floorServer: ChildProcess | undefined;
  try {
    const started = await startService(dbUrl, tablesFile);
    service = started.child;
    const roundId = await event(dbUrl, 'BettingOpened');
    // Warm-up (not counted): the service's code compiled and its connections open, as an hour
    // into a studio's day; its players decide in no measured phase, so the window stays open.
    await load(started.base, 'bets', roundId, 'warm', 10, WARM_UP);
    // How many requests each of the table's transactions took (group commit across requests).
    const measured = async (kind: Kind, c: number, requests: number) => {
      const version = async () =>
        Number(
          (await admin(dbUrl, `SELECT version FROM table_state WHERE table_id = $1`, [TABLE]))[0]
            .version,
        );
      const before = await version();
      project.set(
        `${kind} ${c}`,
        await load(started.base, kind, roundId, `c${c}`, c, requests, service?.pid),
      );
      const transactions = (await version()) - before;
      console.log(
        `${kind}, ${c} connection(s): ${requests} requests in ${transactions} table transactions ` +
          `(${(requests / Math.max(transactions, 1)).toFixed(1)} per transaction)`,
      );
    };
    for (const [i, c] of CONNECTIONS.entries()) await measured('bets', c, REQUESTS[i]);
    await closeBetting(started.base, dbUrl);
    await event(dbUrl, 'DecisionWindowOpened');
    for (const [i, c] of CONNECTIONS.entries()) await measured('decisions', c, REQUESTS[i]);
    await stop(service);
    service = undefined;

    // The floor, in the same database with the service stopped (nothing else competing).
    await admin(dbUrl, `CREATE TABLE floor_bets (LIKE bets INCLUDING ALL)`);
    await admin(dbUrl, `CREATE TABLE floor_decisions (LIKE decisions INCLUDING ALL)`);
    floorServer = fork(join(__dirname, 'http-floor.js'), [], {
      env: { ...process.env, FLOOR_DATABASE_URL: dbUrl, FLOOR_POOL_SIZE: String(POOL_SIZE) },
    });
    const port = await new Promise<number>((ok) =>
      floorServer!.once('message', (m: { port: number }) => ok(m.port)),
    );
    const base = `http://127.0.0.1:${port}`;
    await load(base, 'bets', roundId, 'warm', 10, WARM_UP);
    for (const kind of ['bets', 'decisions'] as const) {
      for (const [i, c] of CONNECTIONS.entries()) {
        floor.set(
          `${kind} ${c}`,
          await load(base, kind, roundId, `c${c}`, c, REQUESTS[i], floorServer?.pid),
        );
      }
    }
  } finally {
    if (service) await stop(service);
    if (floorServer) await stop(floorServer);
    await admin(ADMIN_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    '\n=== HTTP commands, one Infinite Blackjack table: project | floor (same run) | ratio',
  );
  for (const kind of ['bets', 'decisions']) {
    for (const c of CONNECTIONS) {
      const key = `${kind} ${c}`;
      print(`${kind}, ${c} connection${c === 1 ? '' : 's'}`, project.get(key)!, floor.get(key)!);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
