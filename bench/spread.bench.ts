/**
 * Spread: 300 self-dealing tables (BENCH_TABLES), 3 instances of the built service started 10 s
 * apart. Tables per instance at 30, 60 and 120 s after the last one started listening, against
 * the fair share (the floor: tables / instances), and leases that lapsed under a live owner
 * (a table taken without a handover while every instance was alive: should be 0).
 * Prints `project | floor | ratio` lines; asserts nothing.
 */
import {
  benchDatabase,
  Instance,
  kill,
  leasesByOwner,
  selfDealingTables,
  startInstance,
  until,
} from './failover-support';

const TABLES = Number(process.env.BENCH_TABLES ?? 300);
const INSTANCES = 3;
const APART_MS = 10_000;
const CHECKPOINTS_S = [30, 60, 120];

async function main(): Promise<void> {
  const db = await benchDatabase('spread');
  const tables = selfDealingTables(TABLES, 'sp');
  const instances: Instance[] = [];
  let lapsed = 0;
  let handedOver = 0;
  const lapseLines: string[] = [];
  try {
    for (let n = 1; n <= INSTANCES; n += 1) {
      const instance = startInstance(`sp-${n}`, db.url, tables.file, { LOG_LEVEL: 'info' });
      instance.child.stdout!.on('data', (d: Buffer) => {
        for (const l of d.toString().split('\n')) {
          if (/taken without a handover|Lost table/.test(l)) {
            lapsed += /taken without a handover/.test(l) ? 1 : 0;
            if (lapseLines.length < 5) lapseLines.push(l.slice(0, 300));
          }
          const m = l.match(/Handed (\d+) tables over between rounds/);
          if (m) handedOver += Number(m[1]);
        }
      });
      instances.push(instance);
      if (n < INSTANCES) await new Promise((r) => setTimeout(r, APART_MS));
    }
    await until(
      'the last instance to listen',
      async () => /listening on/.test(instances[INSTANCES - 1].output()),
      180_000,
      100,
    );
    const lastReady = Date.now();
    const fair = TABLES / INSTANCES;
    console.log(
      `spread: ${TABLES} self-dealing tables, ${INSTANCES} instances started ${APART_MS / 1000} s apart; floor = the fair share ${fair.toFixed(0)}`,
    );
    console.log(`${'measure'.padEnd(44)} project | floor | ratio`);
    for (const s of CHECKPOINTS_S) {
      await new Promise((r) => setTimeout(r, Math.max(0, lastReady + s * 1000 - Date.now())));
      const by = await leasesByOwner(db.client);
      const counts = instances.map((i) => by.get(i.id)?.length ?? 0);
      const worst = counts.reduce((w, c) => (Math.abs(c - fair) > Math.abs(w - fair) ? c : w));
      console.log(
        `${`tables per instance at ${s} s (${counts.join(' / ')})`.padEnd(44)} ${worst} | ${fair.toFixed(0)} | ${(worst / fair).toFixed(2)}`,
      );
    }
    console.log(`  tables handed over between rounds: ${handedOver}`);
    console.log(`  lapsed leases (taken without a handover, every instance alive): ${lapsed}`);
    for (const l of lapseLines) console.log(`    ${l}`);
  } finally {
    for (const i of instances) kill(i);
    await Promise.all(instances.map((i) => i.exited));
    tables.remove();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
