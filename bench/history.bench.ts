/**
 * Costs as history accumulates: a 100-table studio's history generated straight into PostgreSQL
 * (COPY) from rounds the real service played (history-template.ts, history-generate.ts), and at
 * each size of BENCH_HISTORY_ROUNDS (default 0,5000, a few minutes; 0,20000,100000 for more) the
 * card commit, the relay's read,
 * the auditor's and the consoles' queries and the bytes a round takes on disk, each printed as
 * `project | floor | ratio` where the floor is the same figure on a copy of the studio with no
 * history, measured right after it (same moment, same load on the shared machine).
 * A sample of the generated rounds goes through the audit CLI's verify-chain and verify-replay.
 * Ends with EXPLAIN (ANALYZE, BUFFERS) of the hot queries at the largest size.
 * Database BENCH_HISTORY_DB (default studio_history_bench) on BENCH_DATABASE_URL's server,
 * dropped at the end unless BENCH_KEEP=1; BENCH_HISTORY_FROM=<database> starts from a copy of a
 * database whose templates were played already (saves the two minutes of play). Runs at nice 10 (a shared machine). Asserts nothing.
 */
import 'reflect-metadata';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import { runAuditCli } from '../apps/audit-cli/audit-cli';
import { createStudioDataSource } from '../src/database/data-source.factory';
import { gameOf, HistoryGenerator, ROUND_MS, STUDIO_TABLES, tableIdOf } from './history-generate';
import { Figure, HistoryMeasure } from './history-measure';
import { GAMES, playTemplateRounds } from './history-template';
import { readTemplates } from './history-templates-read';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_HISTORY_DB ?? 'studio_history_bench';
const SIZES = (process.env.BENCH_HISTORY_ROUNDS ?? '0,5000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const TEMPLATE_SECONDS = Number(process.env.BENCH_TEMPLATE_SECONDS ?? 120);
const HOT = [
  'relay read, 500 of 5,000 pending events',
  'audit search by table, newest page',
  'audit search by player',
  'player bet history, newest page',
  'round timeline',
  'hold: last 200 rounds of a table',
  'hold: rounds per hour, 24 h',
  'hold: scanner counts, 24 h',
];

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);

function line(label: string, project: Figure, floor: Figure | undefined): string {
  const f = (x: Figure) => `${x.value.toFixed(2)} ${x.unit}`;
  if (!floor) return `${label.padEnd(48)} ${f(project)} | - | -`;
  const ratio = project.higherBetter ? floor.value / project.value : project.value / floor.value;
  return `${label.padEnd(48)} ${f(project)} | ${f(floor)} | ${ratio.toFixed(2)}`;
}

/** verify-chain over two generated tables and verify-replay over sampled rounds of each game. */
async function verifySample(pool: Pool, rounds: number): Promise<void> {
  if (rounds === 0) return;
  const q = async (sql: string, params?: readonly unknown[]) =>
    (await pool.query(sql, params as unknown[])).rows;
  const quiet: string[] = [];
  for (const g of [0, 1, 2, 3].filter((x) => x < Math.min(rounds, STUDIO_TABLES))) {
    const code = await runAuditCli('verify-chain', ['--table', tableIdOf(g)], q, (l) =>
      quiet.push(l),
    );
    say(`  verify-chain ${tableIdOf(g)} (${gameOf(g)}): exit ${code}: ${quiet.pop()}`);
  }
  const sample = await pool.query<{ id: string; game: string }>(
    `SELECT id, game FROM (SELECT id, game, row_number() OVER (PARTITION BY game ORDER BY id) AS n
                             FROM rounds TABLESAMPLE SYSTEM (1) WHERE table_id LIKE 'h-%' AND status = 'completed') x
      WHERE n <= 5`,
  );
  const failed: string[] = [];
  for (const r of sample.rows) {
    const out: string[] = [];
    if ((await runAuditCli('verify-replay', ['--round', r.id], q, (l) => out.push(l))) !== 0) {
      failed.push(out.join(' '));
    }
  }
  say(
    `  verify-replay: ${sample.rows.length - failed.length} of ${sample.rows.length} sampled rounds replay to their stored settlements`,
  );
  for (const f of failed.slice(0, 4)) say(`    ${f.slice(0, 300)}`);
}

async function main(): Promise<void> {
  setPriority(10);
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  // BENCH_HISTORY_FROM: a database holding the played templates (a kept run's, or a copy), reused.
  const from = process.env.BENCH_HISTORY_FROM;
  await admin(`CREATE DATABASE ${DB}${from ? ` TEMPLATE ${from}` : ''}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  let pool = new Pool({ connectionString: url.toString(), max: 4 });
  // The floor: the same studio with no history, measured at the same moments as the history (the
  // machine is shared: a floor measured minutes earlier would measure other people's load).
  const emptyUrl = new URL(url.toString());
  emptyUrl.pathname = `/${DB}_empty`;
  const emptyPool = new Pool({ connectionString: emptyUrl.toString(), max: 4 });
  try {
    const ds = createStudioDataSource({ url: url.toString(), poolSize: 1, connectTimeoutMs: 5000 });
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    if (!from) await playTemplateRounds(url.toString(), TEMPLATE_SECONDS);
    const templates = readTemplates(url.toString());
    for (const game of GAMES) {
      const blocks = templates.blocks[game];
      const rows = blocks.reduce(
        (n, b) => n + Object.values(b.rows).reduce((m, r) => m + r.length, 0),
        0,
      );
      say(
        `  template ${game}: ${blocks.length} rounds, ${(rows / Math.max(1, blocks.length)).toFixed(0)} rows a round`,
      );
      if (blocks.length === 0)
        throw new Error(`no completed ${game} round to replicate: raise BENCH_TEMPLATE_SECONDS`);
    }
    const max = SIZES[SIZES.length - 1];
    const baseMs = Date.now() - Math.ceil(max / STUDIO_TABLES) * ROUND_MS;
    const generator = new HistoryGenerator(url.toString(), templates, baseMs);
    await generator.registerTables();
    await pool.end();
    await admin(`DROP DATABASE IF EXISTS ${DB}_empty WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DB}_empty TEMPLATE ${DB}`);
    pool = new Pool({ connectionString: url.toString(), max: 4 });
    const measure = new HistoryMeasure(pool, url.toString());
    const floor = new HistoryMeasure(emptyPool, emptyUrl.toString());
    let generated = 0;
    const results: string[] = [];
    for (const size of SIZES) {
      if (size > generated) {
        const started = performance.now();
        await generator.generate(
          generated,
          size,
          async (sql) => (await pool.query(sql)).rows,
          (n) =>
            say(
              `  generated ${generated + n} rounds (${Math.round(n / ((performance.now() - started) / 1000))} rounds/s)`,
            ),
        );
        await generator.finish((sql) => pool.query(sql));
        const seconds = (performance.now() - started) / 1000;
        say(
          `generated rounds ${generated}..${size} in ${seconds.toFixed(0)} s (${Math.round((size - generated) / seconds)} rounds/s)`,
        );
        generated = size;
        const t0 = performance.now();
        await pool.query('VACUUM ANALYZE');
        say(`VACUUM ANALYZE ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      await verifySample(pool, generated);
      const endMs = generator.startOf(generated);
      const figures = await measure.all(endMs, `s${size}`);
      const empty = await floor.all(endMs, `e${size}`);
      const [{ size: dbSize }] = (
        await pool.query<{ size: string }>(
          `SELECT pg_size_pretty(pg_database_size(current_database())) AS size`,
        )
      ).rows;
      const hours = (generated / STUDIO_TABLES) * (ROUND_MS / 3_600_000);
      const header = `history ${generated.toLocaleString('en')} rounds (${hours.toFixed(1)} hours of ${STUDIO_TABLES} tables at a round a minute), database ${dbSize}`;
      const block = [
        header,
        `measure                                          project | floor (empty history) | ratio`,
      ];
      for (const f of figures)
        block.push(
          line(
            f.label,
            f,
            empty.find((e) => e.label === f.label),
          ),
        );
      if (generated > 0) {
        for (const b of await measure.bytesPerRound(generated < 300_000 ? 100 : 2)) {
          block.push(
            `${`bytes per round on disk, ${b.game}`.padEnd(48)} ${Math.round(b.bytes)} B (${b.rounds} rounds)`,
          );
        }
      }
      for (const l of block) say(l);
      results.push(...block, '');
    }
    say('\nEXPLAIN (ANALYZE, BUFFERS) of the hot queries at the largest size:');
    for (const l of await measure.explain(HOT)) say(l);
    say('\nThe same on the empty history:');
    for (const l of await floor.explain(HOT)) say(l);
    say('\nsummary:');
    for (const l of results) say(l);
  } finally {
    await pool.end();
    await emptyPool.end();
    await admin(`DROP DATABASE IF EXISTS ${DB}_empty WITH (FORCE)`);
    if (process.env.BENCH_KEEP === '1') say(`kept database ${DB}`);
    else await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
