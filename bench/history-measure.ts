/**
 * What the history bench measures at each size: the card commit (the service's transition
 * function, 20 tables), the relay, the auditor's queries, the consoles' start-up queries (the
 * hold report over the 100 tables, the action log, a round's cards), and what a round costs on
 * disk per game. Queries run the classes the HTTP API runs (over a pg pool, without HTTP); the
 * statements they send are kept, so the hot ones can be EXPLAINed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { AuditRequestError } from '../src/audit/audit-query';
import { KeysetCursors } from '../src/audit/keyset-cursor';
import { PlayerBetHistoryQuery } from '../src/audit/player-bet-history/player-bet-history.query';
import { PlayerBetHistory } from '../src/audit/player-bet-history/player-bet-history.use-case';
import type { RoundSearchParams } from '../src/audit/round-filter';
import { RoundIdQuery } from '../src/audit/round-id';
import { RoundTimeline } from '../src/audit/round-timeline/round-timeline.use-case';
import { SearchRoundsQuery } from '../src/audit/search-rounds/search-rounds.query';
import { SearchRounds } from '../src/audit/search-rounds/search-rounds.use-case';
import { loadActionLog } from '../src/consoles/console-queries';
import { HoldStatisticsReader } from '../src/history/hold-statistics.reader';
import type { HistoryQuery } from '../src/history/reader/history-query';
import { HistoryReader } from '../src/history/reader/history-reader';
import { READ_SQL } from '../src/outbox/outbox-relay-store';
import { gameOf, STUDIO_TABLES, tableIdOf } from './history-generate';
import { GAMES } from './history-template';
import { prepareFloor, runFloor } from './transition-floor';

export interface Figure {
  label: string;
  value: number;
  unit: string;
  /** Higher is better (throughput): the ratio is then empty / now. */
  higherBetter?: boolean;
}

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const pct = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function p99(run: (i: number) => Promise<unknown>, samples = SAMPLES): Promise<number> {
  for (let i = 0; i < 10; i += 1) await run(i); // plans cached, pages in memory
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const t0 = performance.now();
    await run(i + 10);
    times.push(performance.now() - t0);
  }
  return pct(
    times.sort((a, b) => a - b),
    0.99,
  );
}

export class HistoryMeasure {
  /** The last statement of each measured query, for EXPLAIN. */
  readonly statements = new Map<string, { sql: string; params: unknown[] }>();
  private current = '';

  constructor(
    private readonly pool: Pool,
    private readonly url: string,
  ) {}

  private readonly q: HistoryQuery = async (sql, params) => {
    if (this.current)
      this.statements.set(`${this.current}: ${this.statements.size}`, {
        sql,
        params: (params ?? []) as unknown[],
      });
    return (await this.pool.query(sql, params as unknown[])).rows;
  };

  private async timed(
    label: string,
    unit: string,
    run: (i: number) => Promise<unknown>,
    samples?: number,
  ): Promise<Figure> {
    const value = await p99(run, samples);
    this.current = label;
    for (const key of [...this.statements.keys()])
      if (key.startsWith(`${label}:`)) this.statements.delete(key);
    await run(0);
    this.current = '';
    return { label, value, unit };
  }

  /** Every figure at this size; `endMs` is the end of the generated schedule (the bench's now). */
  async all(endMs: number, step: string): Promise<Figure[]> {
    const figures: Figure[] = [];
    figures.push(...(await this.cardCommit(step)));
    figures.push(...(await this.relayRead()));
    figures.push(...(await this.audit(endMs)));
    figures.push(...(await this.consoles(endMs)));
    return figures;
  }

  /** The service's transition function for a card, 20 tables, one card 20 ms after each commit. */
  async cardCommit(step: string): Promise<Figure[]> {
    const floor = await prepareFloor(this.url, step, 20, 20);
    try {
      await runFloor(floor.tables, 'function', 10, 20, 0); // warm-up
      const run = await runFloor(floor.tables, 'function', 60, 20, 10);
      return [
        { label: 'card commit p50, 20 tables', value: pct(run.samples, 0.5), unit: 'ms' },
        { label: 'card commit p99, 20 tables', value: pct(run.samples, 0.99), unit: 'ms' },
      ];
    } finally {
      await floor.close();
    }
  }

  /**
   * The relay's database side: its read of 500 pending events (the statement each relay batch
   * starts with) over a backlog of 50 events on each of the 100 tables, on top of the history.
   * The backlog is removed afterwards. Publishing to Kafka is the outbox-relay bench's business.
   */
  async relayRead(): Promise<Figure[]> {
    await this.pool.query(
      `INSERT INTO outbox (event_id, topic, table_id, seq, type, schema_version, occurred_at, payload)
       SELECT gen_random_uuid(), 'bench.history.relay', t.id, t.last_event_seq + s, 'CardDealt', 1, now(),
              '{"card":"AS","target":{"kind":"player","box":1}}'
         FROM studio_tables t, generate_series(1, 50) s WHERE t.id LIKE 'h-%'`,
    );
    try {
      return [
        await this.timed('relay read, 500 of 5,000 pending events', 'ms', () =>
          this.q(READ_SQL, [500, [], []]),
        ),
      ];
    } finally {
      await this.pool.query(`DELETE FROM outbox WHERE topic = 'bench.history.relay'`);
    }
  }

  async audit(endMs: number): Promise<Figure[]> {
    const reader = new HistoryReader(this.q);
    const signer = new KeysetCursors(randomBytes(32));
    const valid = <Q>(query: Q | AuditRequestError): Q => {
      if (query instanceof AuditRequestError) throw query;
      return query;
    };
    const searchRounds = new SearchRounds(reader, signer);
    const search = (params: RoundSearchParams) =>
      searchRounds.execute(valid(SearchRoundsQuery.create(params, signer)));
    const timeline = new RoundTimeline(reader);
    const bets = new PlayerBetHistory(reader, signer);
    const random = rng(7);
    const table = () => tableIdOf(Math.floor(random() * STUDIO_TABLES));
    const iso = (ms: number) => new Date(ms).toISOString();
    const players = (
      await this.pool.query<{ player_id: string }>(
        `SELECT player_id FROM bets TABLESAMPLE SYSTEM (1) LIMIT 500`,
      )
    ).rows.map((r) => r.player_id);
    if (players.length === 0) players.push('player-1');
    const rounds = (
      await this.pool.query<{ id: string }>(
        `(SELECT id FROM rounds TABLESAMPLE SYSTEM (1) LIMIT 500) UNION ALL (SELECT id FROM rounds LIMIT 20)`,
      )
    ).rows.map((r) => r.id);
    const day = 86_400_000;
    return [
      await this.timed('audit search by table, newest page', 'ms', () =>
        search({ tableId: table() }),
      ),
      await this.timed('audit search by table + day', 'ms', () => {
        const from = endMs - Math.floor(random() * 7 * day);
        return search({ tableId: table(), from: iso(from - day), to: iso(from) });
      }),
      await this.timed('audit search by game + voided', 'ms', () =>
        search({ game: GAMES[Math.floor(random() * GAMES.length)], status: 'voided' }),
      ),
      await this.timed('audit search all tables, 1 hour', 'ms', () => {
        const from = endMs - Math.floor(random() * 7 * day);
        return search({ from: iso(from - 3_600_000), to: iso(from) });
      }),
      await this.timed('audit search by player', 'ms', (i) =>
        search({ playerId: players[i % players.length] }),
      ),
      await this.timed('player bet history, newest page', 'ms', (i) =>
        bets.execute(valid(PlayerBetHistoryQuery.create(players[i % players.length], {}, signer))),
      ),
      await this.timed('round timeline', 'ms', (i) =>
        timeline.execute(valid(RoundIdQuery.create(rounds[i % rounds.length]))),
      ),
    ];
  }

  async consoles(endMs: number): Promise<Figure[]> {
    const hold = new HoldStatisticsReader(this.q);
    const since = new Date(endMs - 24 * 3_600_000);
    const random = rng(11);
    const table = () => tableIdOf(Math.floor(random() * STUDIO_TABLES));
    const reader = new HistoryReader(this.q);
    const recent = (
      await this.pool.query<{ id: string }>(
        `SELECT id FROM rounds WHERE started_at >= $1 ORDER BY started_at DESC LIMIT 200`,
        [since],
      )
    ).rows.map((r) => r.id);
    if (recent.length === 0) recent.push(randomUUID());
    return [
      await this.timed('hold: last 200 rounds of a table', 'ms', () =>
        hold.lastRounds(table(), 200),
      ),
      await this.timed('hold: rounds per hour, 24 h', 'ms', () => hold.roundsPerHour(since), 30),
      await this.timed('hold: scanner counts, 24 h', 'ms', () => hold.scannerCounts(since), 30),
      await this.timed(
        'hold report (100 tables), supervisor start-up',
        'ms',
        async () => {
          // As GetHoldReport reads them: every table's last rounds in one statement.
          await hold.lastRoundsOf(
            Array.from({ length: STUDIO_TABLES }, (_, g) => tableIdOf(g)),
            200,
          );
          await hold.roundsPerHour(since);
          await hold.scannerCounts(since);
        },
        10,
      ),
      await this.timed('action log, 50 newest', 'ms', () => loadActionLog(this.q, { limit: 50 })),
      await this.timed("a round's cards (dealer console)", 'ms', (i) =>
        reader.cards.inDealingOrder(recent[i % recent.length]),
      ),
    ];
  }

  /** Bytes on disk (tables + indexes + TOAST) per round, per game: each table's size shared out by rows. */
  async bytesPerRound(
    samplePercent: number,
  ): Promise<Array<{ game: string; bytes: number; rounds: number }>> {
    const perTable: Record<string, string> = {
      rounds: `SELECT r.game, pg_column_size(r.*) AS b FROM rounds r`,
      round_events: `SELECT s.game, pg_column_size(e.*) AS b FROM round_events e JOIN studio_tables s ON s.id = e.table_id`,
      round_cards: `SELECT s.game, pg_column_size(e.*) AS b FROM round_cards e JOIN studio_tables s ON s.id = e.table_id`,
      scanner_readings: `SELECT s.game, pg_column_size(e.*) AS b FROM scanner_readings e JOIN studio_tables s ON s.id = e.table_id`,
      outbox: `SELECT s.game, pg_column_size(e.*) AS b FROM outbox e JOIN studio_tables s ON s.id = e.table_id`,
      bets: `SELECT s.game, pg_column_size(e.*) AS b FROM bets e JOIN studio_tables s ON s.id = e.table_id`,
      processed_commands: `SELECT s.game, pg_column_size(e.*) AS b FROM processed_commands e JOIN studio_tables s ON s.id = e.table_id`,
      decisions: `SELECT r.game, pg_column_size(e.*) AS b FROM decisions e JOIN rounds r ON r.id = e.round_id`,
      settlements: `SELECT r.game, pg_column_size(e.*) AS b FROM settlements e JOIN rounds r ON r.id = e.round_id`,
      round_hands: `SELECT r.game, pg_column_size(e.*) AS b FROM round_hands e JOIN rounds r ON r.id = e.round_id`,
      round_stakes: `SELECT r.game, pg_column_size(e.*) AS b FROM round_stakes e JOIN rounds r ON r.id = e.round_id`,
      shoes: `SELECT s.game, pg_column_size(e.*) AS b FROM shoes e JOIN studio_tables s ON s.id = e.table_id`,
    };
    const bytes = new Map<string, number>();
    for (const [table, sql] of Object.entries(perTable)) {
      // A sample of the rows says how the table's bytes split between the games.
      const sampled = sql.replace(
        / FROM (\w+) (\w)/,
        ` FROM $1 $2 TABLESAMPLE SYSTEM (${samplePercent})`,
      );
      const { rows } = await this.pool.query<{
        game: string;
        b: string;
        total: string;
        all_b: string;
      }>(
        `WITH x AS MATERIALIZED (${sampled})
         SELECT x.game, sum(x.b)::text AS b, (SELECT sum(b) FROM x)::text AS all_b,
                pg_total_relation_size('${table}')::text AS total
           FROM x GROUP BY x.game`,
      );
      for (const r of rows) {
        const share = Number(r.b) / Number(r.all_b);
        bytes.set(r.game, (bytes.get(r.game) ?? 0) + share * Number(r.total));
      }
    }
    const { rows } = await this.pool.query<{ game: string; n: number }>(
      `SELECT game, count(*)::int AS n FROM rounds GROUP BY game`,
    );
    return rows.map((r) => ({ game: r.game, rounds: r.n, bytes: (bytes.get(r.game) ?? 0) / r.n }));
  }

  /** EXPLAIN (ANALYZE, BUFFERS) of the kept statements of the given measures. */
  async explain(labels: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const [key, { sql, params }] of this.statements) {
      if (!labels.some((l) => key.startsWith(`${l}:`))) continue;
      const { rows } = await this.pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
        params,
      );
      out.push(`--- ${key}`, ...rows.map((r) => r['QUERY PLAN']));
    }
    return out;
  }
}

export { gameOf };
