import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { RoundStakes1765900000000 } from '../../migrations/1765900000000-RoundStakes';
import { HoldStatisticsReader } from '../../src/history/hold-statistics.reader';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const TABLE = 'stakes-1';

/** What round_stakes must hold: the settlements summed per round, currency and bet type. */
const SUMMED = `
  SELECT round_id, currency, bet_type, sum(stake)::bigint AS stake, sum(net)::bigint AS net,
         count(*)::int AS bets
    FROM settlements WHERE outcome <> 'cancelled'
   GROUP BY round_id, currency, bet_type ORDER BY round_id, currency, bet_type`;
const KEPT = `
  SELECT round_id, currency, bet_type, stake, net, bets
    FROM round_stakes ORDER BY round_id, currency, bet_type`;

interface Settlement {
  round: number;
  betType: 'player' | 'pair';
  currency: 'THB' | 'USD';
  stake: number;
  net: number;
  cancelled: boolean;
}

const settlement = fc.record<Settlement>({
  round: fc.integer({ min: 0, max: 3 }),
  betType: fc.constantFrom('player', 'pair'),
  currency: fc.constantFrom('THB', 'USD'),
  stake: fc.integer({ min: 1, max: 1_000_000 }),
  net: fc.integer({ min: -1_000_000, max: 2_000_000 }),
  cancelled: fc.boolean(),
});

/**
 * round_stakes, the per-round sums live hold monitoring reads instead of every bet, against the
 * real PostgreSQL: whatever statements write the settlements (the service's function, several in
 * one transaction, a plain INSERT), it equals their sums; the migration sums rows written before
 * it; and the hold reader gives what it gave when it summed the settlements itself.
 */
describe('round_stakes: each round summed as its settlements are written', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const rounds: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('round_stakes');
    ds = await db.migrated();
    await insertStudioTables(ds, [TABLE]);
    for (let n = 0; n < 4; n += 1) {
      const id = randomUUID();
      rounds.push(id);
      const at = new Date(Date.UTC(2026, 11, 1, 12, n)).toISOString();
      await ds.query(
        `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, ended_at)
         VALUES ($1, $2, NULL, 1, $3, 'pok-deng', 'completed', 'betting', $4, $4)`,
        [id, TABLE, n + 1, at],
      );
    }
  });

  afterAll(async () => {
    await db?.drop();
  });

  const rowsOf = (batch: Settlement[]) =>
    batch.map((s, i) => ({
      round_id: rounds[s.round],
      bet_id: null,
      player_id: `p${i}`,
      bet_type: s.betType,
      spot: '1',
      stake: s.stake,
      returned: Math.max(0, s.stake + s.net),
      net: s.net,
      outcome: s.cancelled ? 'cancelled' : s.net > 0 ? 'win' : 'lose',
      rounded_down: '0',
      currency: s.currency,
    }));

  it('equals the sums of the settlements, however many statements wrote them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(settlement, { minLength: 1, maxLength: 12 }), { maxLength: 4 }),
        async (batches) => {
          await ds.transaction(async (manager) => {
            for (const [i, batch] of batches.entries()) {
              if (i % 2 === 0) {
                await manager.query(`SELECT studio_write_settlements(now(), $1::jsonb)`, [
                  JSON.stringify(rowsOf(batch)),
                ]);
              } else {
                // A plain INSERT (what a repair by hand, or the history bench's COPY, does).
                await manager.query(
                  `INSERT INTO settlements (round_id, player_id, bet_type, spot, stake, returned, net, outcome, settled_at, currency)
                   SELECT round_id, player_id, bet_type, spot, stake, returned, net, outcome, now(), currency
                     FROM jsonb_to_recordset($1::jsonb) AS s(round_id uuid, player_id text,
                          bet_type text, spot text, stake bigint, returned bigint, net bigint,
                          outcome text, currency text)`,
                  [JSON.stringify(rowsOf(batch))],
                );
              }
            }
          });
          expect(await ds.query(KEPT)).toEqual(await ds.query(SUMMED));
        },
      ),
      { numRuns: 25 },
    );
    // The property wrote something, cancelled bets included, and left those out.
    const [{ n, cancelled }] = await ds.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE outcome = 'cancelled')::int AS cancelled FROM settlements`,
    );
    expect(n).toBeGreaterThan(20);
    expect(cancelled).toBeGreaterThan(0);
  });

  it('sums the rows written before the migration when it runs', async () => {
    const runner = ds.createQueryRunner();
    try {
      const migration = new RoundStakes1765900000000();
      await migration.down(runner);
      await ds.query(
        `INSERT INTO settlements (round_id, player_id, bet_type, spot, stake, returned, net, outcome, settled_at, currency)
         VALUES ($1, 'late', 'player', '2', 700, 1400, 700, 'win', now(), 'THB'),
                ($1, 'late', 'player', '3', 300, 0, -300, 'cancelled', now(), 'THB')`,
        [rounds[0]],
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await ds.query(KEPT)).toEqual(await ds.query(SUMMED));
  });

  it('gives the hold reader the figures it had when it summed the settlements itself', async () => {
    const reader = new HoldStatisticsReader((sql, params) => ds.query(sql, params));
    const fromSettlements = await ds.query(
      `SELECT s.round_id, s.currency, s.bet_type, sum(s.stake)::text AS stake, sum(s.net)::text AS net
         FROM settlements s JOIN rounds r ON r.id = s.round_id
        WHERE r.table_id = $1 AND s.outcome <> 'cancelled'
        GROUP BY r.ended_at, s.round_id, s.currency, s.bet_type
        ORDER BY r.ended_at, s.round_id, s.currency, s.bet_type`,
      [TABLE],
    );
    const read = await reader.lastRounds(TABLE, 10);
    expect(read.length).toBeGreaterThan(0);
    // Several tables in one statement: each its own rounds, the limit per table.
    const both = await reader.lastRoundsOf([TABLE, 'no-such-table'], 10);
    expect(both.get(TABLE)).toEqual(read);
    expect(both.get('no-such-table')).toEqual([]);
    const newest = (await reader.lastRoundsOf([TABLE], 2)).get(TABLE)!;
    const readRounds = [...new Set(read.map((r) => r.roundId))];
    expect(readRounds.length).toBeGreaterThan(2);
    expect([...new Set(newest.map((r) => r.roundId))]).toEqual(readRounds.slice(-2));
    expect(
      read.map((r) => ({
        round_id: r.roundId,
        currency: r.currency,
        bet_type: r.betType,
        stake: String(r.stake),
        net: String(r.net),
      })),
    ).toEqual(
      fromSettlements.map((r: Record<string, string>) => ({ ...r, currency: r.currency.trim() })),
    );
  });
});
