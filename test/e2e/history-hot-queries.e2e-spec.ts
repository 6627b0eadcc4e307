import fc from 'fast-check';
import type { DataSource, QueryRunner } from 'typeorm';
import { RoundHours1766120000000 } from '../../migrations/1766120000000-RoundHours';
import { SettlementsByBet1766100000000 } from '../../migrations/1766100000000-SettlementsByBet';
import { ScannerReadingHours1766110000000 } from '../../migrations/1766110000000-ScannerReadingHours';
import { HoldStatisticsReader } from '../../src/history/hold-statistics.reader';
import { historyQueryOf, HistoryQuery } from '../../src/history/reader/history-query';
import { RoundFilter, RoundsReader } from '../../src/history/reader/rounds.reader';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const TABLES = ['hot-1', 'hot-2'];
const PLAYERS = ['p-busy', 'p-some', 'p-rare', 'p-none'];
const BASE = Date.UTC(2026, 10, 20, 12, 0, 0);
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A small deterministic generator (the history is fixed; the queries are fast-check's). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Two tables' rounds, a minute apart each with jitter, and players' bets placed within the round
 * (some up to 50 s before its recorded start: a clock stepped back); p-busy bets several times in
 * every round, p-some in about half, p-rare in a few.
 */
async function seedHistory(ds: DataSource): Promise<void> {
  const random = rng(42);
  const rounds: unknown[][] = [];
  const bets: unknown[][] = [];
  for (let n = 0; n < 80; n += 1) {
    const table = TABLES[n % 2];
    const started = BASE + n * 60_000 + Math.floor(random() * 90_000);
    rounds.push([uuid(n), table, n + 1, new Date(started).toISOString(), random() < 0.2]);
    const chance: Record<string, number> = { 'p-busy': 1, 'p-some': 0.5, 'p-rare': 0.08 };
    for (const player of PLAYERS.slice(0, 3)) {
      if (random() >= chance[player]) continue;
      const count = player === 'p-busy' ? 1 + Math.floor(random() * 3) : 1;
      for (let k = 0; k < count; k += 1) {
        const placed = started + Math.floor(random() * 100_000) - 50_000 * (random() < 0.1 ? 1 : 0);
        bets.push([
          `b-${n}-${player}-${k}`,
          uuid(n),
          table,
          player,
          new Date(placed).toISOString(),
        ]);
      }
    }
  }
  // The newest two: the later round's bet came before the earlier round's last bet.
  const late = BASE + 100 * 60_000;
  rounds.push([uuid(80), 'hot-1', 81, new Date(late).toISOString(), false]);
  rounds.push([uuid(81), 'hot-2', 82, new Date(late + 30_000).toISOString(), false]);
  bets.push(['b-80', uuid(80), 'hot-1', 'p-busy', new Date(late + 95_000).toISOString()]);
  bets.push(['b-81', uuid(81), 'hot-2', 'p-busy', new Date(late + 40_000).toISOString()]);
  // And one whose only bet is stamped before its start (a clock stepped back half a minute).
  rounds.push([uuid(82), 'hot-1', 83, new Date(late + 200_000).toISOString(), false]);
  bets.push(['b-82', uuid(82), 'hot-1', 'p-rare', new Date(late + 170_000).toISOString()]);
  for (const [id, table, number, started, voided] of rounds) {
    await ds.query(
      `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at)
       VALUES ($1, $2, NULL, 1, $3, 'pok-deng', $4, 'settled', $5)`,
      [id, table, number, voided ? 'voided' : 'completed', started],
    );
  }
  for (const [id, round, table, player, placed] of bets) {
    await ds.query(
      `INSERT INTO bets (id, round_id, table_id, player_id, bet_type, amount, deducted, currency, status, placed_at)
       VALUES ($1, $2, $3, $4, 'player', 100, 100, 'THB', 'accepted', $5)`,
      [id, round, table, player, placed],
    );
  }
}

const filterArb = fc.record(
  {
    playerId: fc.constantFrom(...PLAYERS),
    tableId: fc.constantFrom(...TABLES),
    status: fc.constantFrom('completed', 'voided'),
    from: fc.integer({ min: -10, max: 90 }).map((m) => new Date(BASE + m * 60_000)),
    to: fc.integer({ min: 0, max: 100 }).map((m) => new Date(BASE + m * 60_000)),
  },
  { requiredKeys: ['playerId'] },
);

/** Windows that start on, just after and inside an hour, against the hourly counts' edge. */
const WINDOWS = [0, 1, 59_999, 3_600_000, 5_400_001, 20 * 3_600_000 + 17].map(
  (ms) => new Date(BASE + ms),
);

/** The reader's figures of our tables equal the row-by-row query's, for every window. */
async function expectSameForEveryWindow<T extends { tableId: string }>(
  counted: (since: Date) => Promise<T[]>,
  oneByOne: (since: Date) => Promise<T[]>,
): Promise<void> {
  const ours = (rows: T[]) => rows.filter((c) => TABLES.includes(c.tableId));
  for (const since of WINDOWS)
    expect(ours(await counted(since))).toEqual(ours(await oneByOne(since)));
}

/** Runs a migration's down and up again, with `between` done while it is undone. */
async function redo(
  ds: DataSource,
  migration: { up(r: QueryRunner): Promise<void>; down(r: QueryRunner): Promise<void> },
  between: () => Promise<unknown>,
): Promise<void> {
  const runner = ds.createQueryRunner();
  try {
    await migration.down(runner);
    await between();
    await migration.up(runner);
  } finally {
    await runner.release();
  }
}

/**
 * The audit search by player reads only the player's newest bets when they prove the page (an
 * index range however long the player's history), and otherwise more of them, then all: whatever
 * the filters, page size and position, it returns exactly what the query over all the player's
 * bets returns. And the hold monitor's scanner counts, from hourly counts and one partial hour.
 */
describe('history queries that must not grow with the history', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let q: HistoryQuery;

  beforeAll(async () => {
    db = await createTestDatabase('history_hot_queries');
    ds = await db.migrated();
    q = historyQueryOf(ds);
    await insertStudioTables(ds, TABLES);
    await seedHistory(ds);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('a search by player gives the same pages from its newest bets as from all of them', async () => {
    // No window: the query over every bet of the player, the reference.
    const everything = new RoundsReader(q, []);
    let windowed = 0;
    await fc.assert(
      fc.asyncProperty(
        filterArb,
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 30 }),
        async (filter: RoundFilter, limit, windows, skip) => {
          // A position inside the reference's own order (or none): later pages too.
          const all = await everything.search(filter, undefined, 500);
          const after = skip < all.length && skip % 3 !== 0 ? all[skip].key : undefined;
          const expected = await everything.search(filter, after, limit);
          const reader = new RoundsReader(q, windows);
          const got = await reader.search(filter, after, limit);
          expect(got.map((r) => r.id)).toEqual(expected.map((r) => r.id));
          expect(got).toEqual(expected);
          if (expected.length > 0) windowed += 1;
        },
      ),
      { numRuns: 150 },
    );
    expect(windowed).toBeGreaterThan(20);
  });

  it('a busy player newest page is proved from the first window', async () => {
    // 80 rounds with 1-3 bets each: the newest 30 bets hold the newest 5 rounds with room to spare.
    const calls: string[] = [];
    const counting: HistoryQuery = (sql, params) => {
      calls.push(sql);
      return q(sql, params);
    };
    const page = await new RoundsReader(counting, [30, 200]).search(
      { playerId: 'p-busy' },
      undefined,
      5,
    );
    expect(page).toHaveLength(5);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('LIMIT $');
    const reference = await new RoundsReader(q, []).search({ playerId: 'p-busy' }, undefined, 5);
    expect(page).toEqual(reference);
  });

  it('finds the rounds whose bets are stamped out of their order', async () => {
    // p-busy's newest bet is in round 80, yet round 81 started after it: one bet proves nothing.
    const reader = new RoundsReader(q, [1, 2]);
    const page = await reader.search({ playerId: 'p-busy' }, undefined, 1);
    expect(page.map((r) => r.id)).toEqual([uuid(81)]);
    const two = await reader.search({ playerId: 'p-busy' }, undefined, 2);
    expect(two.map((r) => r.id)).toEqual([uuid(81), uuid(80)]);
    // Asked from its start on, the round whose bet is stamped before it is still found.
    const from = new Date(BASE + 100 * 60_000 + 200_000);
    const rare = await reader.search({ playerId: 'p-rare', from }, undefined, 5);
    expect(rare.map((r) => r.id)).toEqual([uuid(82)]);
  });

  it("counts each table's cards and unrecognised readings from its hourly counts, as one by one", async () => {
    const random = rng(7);
    const kinds = ['card', 'card', 'card', 'unrecognised', 'heartbeat', 'status'];
    const reading = () => [
      TABLES[Math.floor(random() * 2)],
      kinds[Math.floor(random() * kinds.length)],
      new Date(BASE + Math.floor(random() * 30 * 3_600_000)).toISOString(),
    ];
    const store = (rows: unknown[][]) =>
      ds.query(
        `INSERT INTO scanner_readings (table_id, port, wire_format, kind, raw, decoded, received_at, outcome)
         SELECT t, '/dev/x', 'line', k, '\\x41'::bytea, '{}', at, 'applied'
           FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS x(t, k, at)`,
        [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
      );
    // Several statements of several readings, one of a single reading.
    for (let n = 0; n < 12; n += 1) await store(Array.from({ length: 1 + n * 7 }, reading));
    const hold = new HoldStatisticsReader(q);
    const oneByOne = async (since: Date) =>
      (await ds.query(
        `SELECT t.id AS "tableId",
                  count(r.*) FILTER (WHERE r.kind = 'card')::int AS cards,
                  count(r.*) FILTER (WHERE r.kind = 'unrecognised')::int AS unrecognised,
                  0 AS outages
             FROM studio_tables t
             LEFT JOIN scanner_readings r ON r.table_id = t.id AND r.received_at >= $1
            GROUP BY t.id ORDER BY t.id`,
        [since],
      )) as Array<{ tableId: string; cards: number }>;
    const expectCounted = () =>
      expectSameForEveryWindow((since) => hold.scannerCounts(since), oneByOne);
    await expectCounted();
    expect((await oneByOne(WINDOWS[0]))[0].cards).toBeGreaterThan(50);

    // Readings stored before the migration are counted by it.
    await redo(ds, new ScannerReadingHours1766110000000(), () =>
      store(Array.from({ length: 40 }, reading)),
    );
    await store(Array.from({ length: 9 }, reading));
    await expectCounted();
  });

  it('counts completed rounds per hour from hourly counts, as round by round', async () => {
    const random = rng(9);
    const hold = new HoldStatisticsReader(q);
    let n = 500;
    const round = async (table: string, status: string, ended: number | null) => {
      n += 1;
      await ds.query(
        `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, ended_at)
         VALUES ($1, $2, NULL, 1, $3, 'pok-deng', $4, 'settled', $5, $6)`,
        [
          uuid(n),
          table,
          n,
          status,
          new Date(BASE).toISOString(),
          ended === null ? null : new Date(ended).toISOString(),
        ],
      );
      return uuid(n);
    };
    const later = () => BASE + Math.floor(random() * 30 * 3_600_000);
    const ids: string[] = [];
    for (let k = 0; k < 60; k += 1) {
      ids.push(await round(TABLES[k % 2], 'in-progress', null));
    }
    // As the service ends them: status and end in one update; some voided, one deleted, some moved.
    for (const id of ids.slice(0, 45)) {
      await ds.query(
        `UPDATE rounds SET status = 'completed', phase = 'settled', ended_at = $2 WHERE id = $1`,
        [id, new Date(later()).toISOString()],
      );
    }
    for (const id of ids.slice(45, 50)) {
      await ds.query(`UPDATE rounds SET status = 'voided', ended_at = $2 WHERE id = $1`, [
        id,
        new Date(later()).toISOString(),
      ]);
    }
    await ds.query(`UPDATE rounds SET status = 'voided' WHERE id = ANY($1::uuid[])`, [
      ids.slice(0, 4),
    ]);
    await ds.query(
      `UPDATE rounds SET ended_at = ended_at + interval '3 hours' WHERE id = ANY($1::uuid[])`,
      [ids.slice(10, 16)],
    );
    await ds.query(`UPDATE rounds SET phase = 'settled' WHERE id = ANY($1::uuid[])`, [
      ids.slice(16, 20),
    ]);
    await ds.query(`DELETE FROM rounds WHERE id = $1`, [ids[20]]);
    await round('hot-1', 'completed', later()); // inserted as completed (a copy, a restore)
    const roundByRound = async (since: Date) =>
      (await ds.query(
        `SELECT table_id AS "tableId",
                  to_char(date_trunc('hour', ended_at, 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour,
                  count(*)::int AS rounds
             FROM rounds WHERE status = 'completed' AND ended_at >= $1
            GROUP BY 1, 2 ORDER BY 1, 2`,
        [since],
      )) as Array<{ tableId: string }>;
    const expectCounted = () =>
      expectSameForEveryWindow((since) => hold.roundsPerHour(since), roundByRound);
    await expectCounted();
    expect((await roundByRound(WINDOWS[0])).length).toBeGreaterThan(10);

    // Rounds completed before the migration are counted by it.
    await redo(ds, new RoundHours1766120000000(), () => round('hot-2', 'completed', later()));
    await ds.query(`UPDATE rounds SET status = 'completed', ended_at = $2 WHERE id = $1`, [
      ids[55],
      new Date(later()).toISOString(),
    ]);
    await expectCounted();
  });

  it('builds the settlements index by round and bet again after a build cut short', async () => {
    // Two settlements of one round: a UNIQUE build on round_id fails and, being CONCURRENTLY,
    // leaves an invalid index of the migration's name behind, as a killed build would.
    for (const player of ['s-1', 's-2']) {
      await ds.query(
        `INSERT INTO settlements (round_id, player_id, bet_type, spot, stake, returned, net, outcome, settled_at, currency)
         VALUES ($1, $2, 'player', '1', 100, 200, 100, 'win', now(), 'THB')`,
        [uuid(3), player],
      );
    }
    const valid = async () =>
      (
        await ds.query(
          `SELECT i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS def
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE c.relname = 'settlements_round_bet_idx'`,
        )
      )[0] as { valid: boolean; def: string } | undefined;
    await ds.query(`DROP INDEX settlements_round_bet_idx`);
    await expect(
      ds.query(
        `CREATE UNIQUE INDEX CONCURRENTLY settlements_round_bet_idx ON settlements (round_id)`,
      ),
    ).rejects.toThrow(/unique index/);
    expect((await valid())?.valid).toBe(false);

    const runner = ds.createQueryRunner();
    try {
      await new SettlementsByBet1766100000000().up(runner);
    } finally {
      await runner.release();
    }
    const index = await valid();
    expect(index?.valid).toBe(true);
    expect(index?.def).toContain('(round_id, bet_id)');
    expect(index?.def).not.toContain('UNIQUE');
  });
});
