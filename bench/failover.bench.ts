/**
 * Failover after a crash: 3 instances of the built service drive 12 self-dealing tables; the one
 * driving the most is SIGKILLed, again and again (BENCH_KILLS, default 10), and restarted after.
 * For every table it drove: SIGKILL -> the lease taken by a survivor, and SIGKILL -> the table's
 * first committed transition on the survivor (its first round event after the kill).
 * The floor, measured in the same run: SIGKILL of a bare process holding a session advisory lock
 * -> the lock granted to a waiting session (how long PostgreSQL takes to notice a dead client).
 * Prints `project | floor | ratio` lines; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from 'pg';
import {
  benchDatabase,
  Instance,
  kill,
  leasesByOwner,
  line,
  pct,
  selfDealingTables,
  startInstance,
  until,
} from './failover-support';

const KILLS = Number(process.env.BENCH_KILLS ?? 10);
const INSTANCES = 3;
const TABLES = Number(process.env.BENCH_TABLES ?? 12);
const REPO_ROOT = resolve(__dirname, '..', '..');

/** SIGKILL of a process holding a session advisory lock -> a waiting session gets the lock. */
async function lockReleaseFloor(url: string, key: number): Promise<number> {
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const { Client } = require('pg');
       const c = new Client({ connectionString: ${JSON.stringify(url)} });
       c.connect().then(() => c.query('SELECT pg_advisory_lock(727099, ${key})')).then(() => console.log('locked'));
       setInterval(() => undefined, 1000);`,
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((ok) => holder.stdout!.on('data', () => ok()));
  const waiter = new Client({ connectionString: url });
  await waiter.connect();
  const granted = waiter.query('SELECT pg_advisory_lock(727099, $1)', [key]);
  await new Promise((r) => setTimeout(r, 100)); // the waiter is queued behind the holder
  const t0 = performance.now();
  holder.kill('SIGKILL');
  await granted;
  const ms = performance.now() - t0;
  await waiter.end();
  return ms;
}

async function main(): Promise<void> {
  const db = await benchDatabase('failover');
  const tables = selfDealingTables(TABLES, 'fo', { bettingWindowMs: 1_000, roundIntervalMs: 100 });
  const instances = new Map<string, Instance>();
  const launch = (id: string) =>
    instances.set(id, startInstance(id, db.url, tables.file, { VIRTUAL_DEALER_PACE_MS: '20' }));
  const taken: number[] = [];
  const firstTransition: number[] = [];
  const floor: number[] = [];
  let ttl = 'default';
  try {
    launch('fo-1');
    await until(
      'fo-1 to drive tables',
      async () => (await leasesByOwner(db.client)).size > 0,
      120_000,
      200,
    );
    launch('fo-2');
    launch('fo-3');
    const spread = async () => {
      const by = await leasesByOwner(db.client);
      const counts = [...instances.keys()].map((id) => by.get(id)?.length ?? 0);
      return counts.every((n) => n >= Math.floor(TABLES / INSTANCES) - 1) && by;
    };
    for (let k = 0; k < KILLS; k += 1) {
      const by = await until('the tables to spread over the instances', spread, 180_000, 200);
      const [victim, ofVictim] = [...by].sort((a, b) => b[1].length - a[1].length)[0];
      const {
        rows: [{ now }],
      } = await db.client.query<{ now: Date }>(`SELECT clock_timestamp() AS now`);
      kill(instances.get(victim)!);
      const t0 = now.getTime();
      const done = await until(
        'a survivor to commit a transition of every table the victim drove',
        async () => {
          const { rows } = await db.client.query<{ table_id: string; first: Date; acquired: Date }>(
            `SELECT e.table_id, min(e.occurred_at) AS first, min(l.acquired_at) AS acquired
               FROM round_events e JOIN table_leases l ON l.table_id = e.table_id
              WHERE e.table_id = ANY($1) AND e.occurred_at > $2 AND l.owner <> $3
              GROUP BY e.table_id`,
            [ofVictim, now, victim],
          );
          return rows.length === ofVictim.length && rows;
        },
        60_000,
      ).catch(async (error) => {
        const { rows } = await db.client.query(
          `SELECT l.table_id, l.owner, l.epoch, max(e.occurred_at) AS last_event
             FROM table_leases l LEFT JOIN round_events e ON e.table_id = l.table_id
            WHERE l.table_id = ANY($1) GROUP BY 1, 2, 3 ORDER BY 1`,
          [ofVictim],
        );
        console.log(`killed ${victim} at ${now.toISOString()}`, rows);
        for (const [id, i] of instances) console.log(id, i.output().slice(-3000));
        throw error;
      });
      for (const r of done) {
        taken.push(r.acquired.getTime() - t0);
        firstTransition.push(r.first.getTime() - t0);
      }
      await instances.get(victim)!.exited;
      floor.push(await lockReleaseFloor(db.url, k));
      process.stdout.write(
        `  kill ${k + 1}: ${victim} drove ${ofVictim.length} tables; last taken after ${Math.max(...done.map((r) => r.first.getTime() - t0))} ms\n`,
      );
      launch(victim);
    }
    const ttlRow = await db.client.query<{ ttl: number }>(
      `SELECT round(extract(epoch FROM (expires_at - renewed_at)) * 1000)::int AS ttl FROM table_leases LIMIT 1`,
    );
    ttl = `${ttlRow.rows[0]?.ttl ?? '?'} ms`;
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const [t, f, fl] = [sorted(taken), sorted(firstTransition), sorted(floor)];
    console.log(
      `failover: ${INSTANCES} instances, ${TABLES} self-dealing tables, lease TTL ${ttl}, ${KILLS} SIGKILLs, ${t.length} tables taken over`,
    );
    console.log(
      '  floor: SIGKILL of a process holding a session advisory lock -> lock granted to a waiter',
    );
    console.log(`${'measure'.padEnd(44)} project | floor | ratio`);
    for (const q of [0.5, 0.99]) {
      const label = `p${q * 100}`;
      console.log(
        line(`${label} SIGKILL -> lease taken by a survivor`, pct(t, q), pct(fl, q), 'ms'),
      );
      console.log(
        line(`${label} SIGKILL -> first committed transition`, pct(f, q), pct(fl, q), 'ms'),
      );
    }
    const paused = await db.client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM round_events WHERE type = 'RoundPaused'`,
    );
    console.log(`  rounds paused by the system: ${paused.rows[0].n}`);
  } finally {
    for (const i of instances.values()) kill(i);
    await Promise.all([...instances.values()].map((i) => i.exited));
    tables.remove();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
