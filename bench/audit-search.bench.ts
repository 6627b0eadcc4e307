/**
 * Auditor searches over a large history: loads BENCH_ROUNDS rounds (default 1,000,000) into a
 * fresh PostgreSQL database migrated with every migration (AuditIndexes included), each round
 * with a bet, its settlement, two cards, two raw readings and two chained events, spread over 20
 * tables, 4 games and ~26 days. Then times the auditor use cases (the same classes the HTTP API
 * runs, over a pg pool: database and mapping, without HTTP) with random parameters and prints
 * p50/p99/max, and the throughput of the CSV and NDJSON exports. Asserts nothing.
 * Needs the PostgreSQL server (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres);
 * creates and drops a database of its own (BENCH_KEEP=1 keeps it).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import { AuditRequestError } from '../src/audit/audit-query';
import { ExportRoundsQuery } from '../src/audit/export-rounds/export-rounds.query';
import { ExportRounds } from '../src/audit/export-rounds/export-rounds.use-case';
import { KeysetCursors } from '../src/audit/keyset-cursor';
import { PlayerBetHistoryQuery } from '../src/audit/player-bet-history/player-bet-history.query';
import { PlayerBetHistory } from '../src/audit/player-bet-history/player-bet-history.use-case';
import type { RoundSearchParams } from '../src/audit/round-filter';
import { RoundIdQuery } from '../src/audit/round-id';
import { RoundTimeline } from '../src/audit/round-timeline/round-timeline.use-case';
import { SearchRoundsQuery } from '../src/audit/search-rounds/search-rounds.query';
import { SearchRounds } from '../src/audit/search-rounds/search-rounds.use-case';
import { HistoryReader } from '../src/history/reader/history-reader';
import type { HistoryQuery } from '../src/history/reader/history-query';
import { createStudioDataSource } from '../src/database/data-source.factory';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const TABLES = 20;
const PLAYERS = 20_000;
const ROUNDS_PER_SHOE = 60;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GAMES = ['pok-deng', 'infinite-blackjack', 'blackjack-lux', 'european-blackjack-practice'];
const BASE = Date.parse('2026-10-01T00:00:00Z');
/** Round k of a table starts 45 s after round k-1; tables are offset by 1.7 s. */
const ROUND_SECONDS = 45;

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(label: string, run: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i += 1) await run(i); // warm-up: plans cached, pages in memory
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const start = performance.now();
    await run(i + 20);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(7);
  process.stdout.write(
    `${label.padEnd(46)} p50 ${f(percentile(samples, 50))} ms  p99 ${f(percentile(samples, 99))} ms  max ${f(samples[samples.length - 1])} ms\n`,
  );
}

/** Deterministic pseudo-random sequence, so runs compare. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function load(pool: Pool): Promise<void> {
  await pool.query(
    `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, registered_at, updated_at)
     SELECT 'bench-' || lpad(t::text, 2, '0'), 'Bench ' || t, ($1::text[])[t % 4 + 1], 'EUR', '{}'::jsonb, 'x', now(), now()
       FROM generate_series(0, ${TABLES - 1}) t`,
    [GAMES],
  );
  const perTable = Math.ceil(ROUNDS / TABLES);
  await pool.query(
    `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
     SELECT md5('shoe-' || t || '-' || s)::uuid, 'bench-' || lpad(t::text, 2, '0'), s, 8, 'finished',
            to_timestamp($1 / 1000.0) + ((s - 1) * ${ROUNDS_PER_SHOE} * ${ROUND_SECONDS}) * interval '1 second'
       FROM generate_series(0, ${TABLES - 1}) t, generate_series(1, ${Math.ceil(perTable / ROUNDS_PER_SHOE)}) s`,
    [BASE],
  );
  const CHUNK = 100_000;
  for (let from = 0; from < ROUNDS; from += CHUNK) {
    const to = Math.min(ROUNDS, from + CHUNK) - 1;
    const started = performance.now();
    // i: global round index; t = i % 20 its table; k = i / 20 its index at the table.
    const series = `FROM generate_series(${from}, ${to}) i,
         LATERAL (SELECT i % ${TABLES} AS t, i / ${TABLES} AS k) x,
         LATERAL (SELECT 'bench-' || lpad(x.t::text, 2, '0') AS table_id,
                         md5('round-' || i)::uuid AS round_id,
                         to_timestamp($1 / 1000.0) + (x.k::bigint * ${ROUND_SECONDS} * 1000 + x.t * 1700) * interval '1 millisecond' AS at) y`;
    await pool.query('BEGIN');
    await pool.query(
      `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, ended_at, void_reason)
       SELECT y.round_id, y.table_id, md5('shoe-' || x.t || '-' || (x.k / ${ROUNDS_PER_SHOE} + 1))::uuid,
              x.k / ${ROUNDS_PER_SHOE} + 1, x.k % ${ROUNDS_PER_SHOE} + 1, ($2::text[])[x.t % 4 + 1],
              CASE WHEN x.k % 50 = 7 THEN 'voided' ELSE 'completed' END, 'settled', y.at,
              y.at + interval '40 seconds', CASE WHEN x.k % 50 = 7 THEN 'camera failure' END
         ${series}`,
      [BASE, GAMES],
    );
    await pool.query(
      `INSERT INTO bets (id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at)
       SELECT 'b-' || i, y.round_id, y.table_id, 'player-' || ((i::bigint * 7919) % ${PLAYERS}), 'c-' || i, 'main', '1',
              1000, 1000, 'EUR', 'settled', y.at + interval '2 seconds'
         ${series}`,
      [BASE],
    );
    await pool.query(
      `INSERT INTO settlements (round_id, bet_id, player_id, bet_type, spot, stake, returned, net, outcome, settled_at, currency)
       SELECT y.round_id, 'b-' || i, 'player-' || ((i::bigint * 7919) % ${PLAYERS}), 'main', '1', 1000,
              (i % 3) * 1000, (i % 3) * 1000 - 1000, CASE i % 3 WHEN 0 THEN 'lose' WHEN 1 THEN 'push' ELSE 'win' END,
              y.at + interval '40 seconds', 'EUR'
         ${series}`,
      [BASE],
    );
    await pool.query(
      `INSERT INTO scanner_readings (id, table_id, port, wire_format, kind, raw, decoded, device_seq, received_at, outcome)
       SELECT i * 2 + j, y.table_id, '/dev/bench', 'studio-framed-v1', 'card', decode('02' || lpad(to_hex(i % 52), 2, '0') || '03', 'hex'),
              jsonb_build_object('kind', 'card', 'code', 'AS'), (i * 2 + j)::int % 65536, y.at + (10 + j) * interval '1 second', 'applied'
         ${series}, generate_series(0, 1) j`,
      [BASE],
    );
    await pool.query(
      `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, revealed_at)
       SELECT y.round_id, md5('shoe-' || x.t || '-' || (x.k / ${ROUNDS_PER_SHOE} + 1))::uuid, y.table_id,
              CASE j WHEN 0 THEN 'player-1/1' ELSE 'banker/1' END, 'AS', i * 2 + j, true,
              y.at + (10 + j) * interval '1 second', y.at + interval '30 seconds'
         ${series}, generate_series(0, 1) j`,
      [BASE],
    );
    await pool.query(
      `INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
       SELECT y.table_id, x.k * 2 + j + 1, y.round_id, CASE j WHEN 0 THEN 'RoundStarted' ELSE 'RoundCompleted' END,
              'public', jsonb_build_object('round', x.k), NULL, y.at + j * interval '40 seconds',
              md5('p' || i || j) || md5('q' || i || j), md5('h' || i || j) || md5('r' || i || j)
         ${series}, generate_series(0, 1) j`,
      [BASE],
    );
    await pool.query('COMMIT');
    process.stdout.write(
      `loaded rounds ${from}..${to} (+1 bet, 1 settlement, 2 cards, 2 readings, 2 events each) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  const started = performance.now();
  await pool.query('VACUUM ANALYZE');
  process.stdout.write(`VACUUM ANALYZE ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

async function main(): Promise<void> {
  const dbName = `studio_bench_audit_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const pool = new Pool({ connectionString: url.toString(), max: 4 });
  try {
    const ds = createStudioDataSource({ url: url.toString(), poolSize: 1, connectTimeoutMs: 5000 });
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    const loadStart = performance.now();
    await load(pool);
    const [{ rounds }] = (await pool.query(`SELECT count(*)::int AS rounds FROM rounds`)).rows;
    const [{ size }] = (
      await pool.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)
    ).rows;
    process.stdout.write(
      `history: ${rounds} rounds in ${size}, loaded in ${((performance.now() - loadStart) / 1000).toFixed(0)} s\n\n`,
    );

    const q: HistoryQuery = async (sql, params) =>
      (await pool.query(sql, params as unknown[])).rows;
    const reader = new HistoryReader(q);
    // The controller's path: the query object validates the parameters, then the use case runs.
    const signer = new KeysetCursors(randomBytes(32));
    const valid = <Q>(query: Q | AuditRequestError): Q => {
      if (query instanceof AuditRequestError) throw query;
      return query;
    };
    const searchRounds = new SearchRounds(reader, signer);
    const search = {
      execute: (params: RoundSearchParams) =>
        searchRounds.execute(valid(SearchRoundsQuery.create(params, signer))),
    };
    const roundTimeline = new RoundTimeline(reader);
    const timeline = {
      execute: (id: string) => roundTimeline.execute(valid(RoundIdQuery.create(id))),
    };
    const playerBets = new PlayerBetHistory(reader, signer);
    const history = {
      execute: (player: string, params: Record<string, string>) =>
        playerBets.execute(valid(PlayerBetHistoryQuery.create(player, params, signer))),
    };
    const exporter = new ExportRounds(reader);
    const random = rng(42);
    const perTable = Math.ceil(ROUNDS / TABLES);
    const span = perTable * ROUND_SECONDS * 1000;
    const table = () => `bench-${String(Math.floor(random() * TABLES)).padStart(2, '0')}`;
    const instant = () => BASE + Math.floor(random() * span);
    const iso = (ms: number) => new Date(ms).toISOString();

    process.stdout.write(`${SAMPLES} samples each, page size 50, random parameters:\n`);
    await time('search: by table (newest page)', () => search.execute({ tableId: table() }));
    await time('search: by table + 1-day range', () => {
      const from = instant();
      return search.execute({ tableId: table(), from: iso(from), to: iso(from + 86_400_000) });
    });
    await time('search: by time range (1 hour), all tables', () => {
      const from = instant();
      return search.execute({ from: iso(from), to: iso(from + 3_600_000) });
    });
    await time('search: by game + status voided', () =>
      search.execute({ game: GAMES[Math.floor(random() * 4)], status: 'voided' }),
    );
    await time('search: by table + status voided', () =>
      search.execute({ tableId: table(), status: 'voided' }),
    );
    await time('search: by game + status + 1-day range', () => {
      const from = instant();
      return search.execute({
        game: GAMES[Math.floor(random() * 4)],
        status: 'completed',
        from: iso(from),
        to: iso(from + 86_400_000),
      });
    });
    const shoes = (await pool.query(`SELECT id FROM shoes ORDER BY random() LIMIT 1000`)).rows;
    await time('search: by shoe', (i) => search.execute({ shoeId: shoes[i % shoes.length].id }));
    await time('search: by player', () =>
      search.execute({ playerId: `player-${Math.floor(random() * PLAYERS)}` }),
    );
    // A page deep into a table's history: the cursor of a page that starts at a random time.
    const cursors: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const page = await search.execute({ tableId: table(), to: iso(instant()), limit: '50' });
      if (page.nextCursor) cursors.push(page.nextCursor);
    }
    await time('search: next page by cursor, deep in history', (i) =>
      search.execute({ tableId: 'bench-00', cursor: cursors[i % cursors.length] }),
    );
    await time('player bet history (newest page)', () =>
      history.execute(`player-${Math.floor(random() * PLAYERS)}`, {}),
    );
    const ids = (await pool.query(`SELECT id FROM rounds TABLESAMPLE SYSTEM (1) LIMIT 2000`)).rows;
    await time('round timeline', (i) => timeline.execute(ids[i % ids.length].id));

    for (const format of ['csv', 'ndjson'] as const) {
      const from = BASE;
      const to = BASE + Math.floor(span / 10);
      const started = performance.now();
      let bytes = 0;
      let lines = 0;
      const query = valid(ExportRoundsQuery.create({ from: iso(from), to: iso(to), format }));
      for await (const chunk of exporter.chunks(query)) {
        bytes += Buffer.byteLength(chunk);
        for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) lines += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      const rows = format === 'csv' ? lines - 1 : lines;
      process.stdout.write(
        `export ${format.padEnd(6)} ${rows} rounds (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s: ${Math.round(rows / seconds)} rounds/s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s\n`,
      );
    }
  } finally {
    await pool.end();
    if (!process.env.BENCH_KEEP) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    else process.stdout.write(`kept database ${dbName}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
