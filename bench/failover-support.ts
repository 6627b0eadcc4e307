/**
 * What the failover and spread benchmarks share: a database of their own, the built service run
 * as separate processes (so that SIGKILL is real), and tables that deal by themselves (virtual
 * shoes on in-process TCP servers, no socat) so rounds start and end without a test driving them.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

export const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MAIN_JS = resolve(__dirname, '..', 'src', 'main.js');

export async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export const pct = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export function line(label: string, project: number, floor: number, unit: string): string {
  return `${label.padEnd(44)} ${project.toFixed(0)} ${unit} | ${floor.toFixed(0)} ${unit} | ${(project / floor).toFixed(2)}`;
}

export interface BenchDatabase {
  url: string;
  client: Client;
  drop(): Promise<void>;
}

export async function benchDatabase(label: string): Promise<BenchDatabase> {
  const name = `bench_${label}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString(),
    client,
    drop: async () => {
      await client.end().catch(() => undefined);
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** `count` Pok Deng tables dealing by themselves, written to a tables file in a folder of its own. */
export function selfDealingTables(
  count: number,
  prefix: string,
  pace: { bettingWindowMs: number; roundIntervalMs: number } = {
    bettingWindowMs: 1_000,
    roundIntervalMs: 500,
  },
) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${prefix}-`));
  const ids = Array.from({ length: count }, (_, n) => `${prefix}-${String(n).padStart(3, '0')}`);
  const tables = ids.map((id, n) => ({
    id,
    name: `Bench ${n}`,
    game: 'pok-deng',
    currency: 'THB',
    ...pace,
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: {
        seed: 100 + n,
        intervalMs: 3_600_000,
        misreadRate: 0,
        heartbeatIntervalMs: 60_000,
        tcpPort: 0,
      },
    },
  }));
  const file = join(dir, 'tables.json');
  writeFileSync(file, JSON.stringify(tables));
  return { ids, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Instance {
  id: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
}

/** The built service as a process of its own (its own group: SIGKILL takes its children too). */
export function startInstance(
  id: string,
  databaseUrl: string,
  tablesFile: string,
  extra: Record<string, string> = {},
): Instance {
  const child = spawn(process.execPath, [MAIN_JS], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      STUDIO_INSTANCE_ID: id,
      TABLES_FILE: tablesFile,
      VIRTUAL_DEALER_PACE_MS: '50',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d.toString()).slice(-200_000)));
  child.stderr!.on('data', (d) => (out = (out + d.toString()).slice(-200_000)));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return { id, child, output: () => out, exited };
}

export function kill(instance: Instance, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-instance.child.pid!, signal);
  } catch {
    instance.child.kill(signal);
  }
}

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Before the first instance migrated the database its tables do not exist yet.
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value as T;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Live leases per owner, from the database. */
export async function leasesByOwner(client: Client): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ owner: string; table_id: string }>(
    `SELECT owner, table_id FROM table_leases WHERE expires_at >= clock_timestamp() ORDER BY table_id`,
  );
  const by = new Map<string, string[]>();
  for (const r of rows) by.set(r.owner, [...(by.get(r.owner) ?? []), r.table_id]);
  return by;
}
