import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isCommandSpecificFailure } from '../../src/tables/command-queue';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const TABLE = 'refs-1';

/**
 * Bets and decisions name their round (a bet its table too), checked once per statement instead
 * of by per-row foreign keys (migration 1764846000000): what those refused is still refused, with
 * the foreign key's SQLSTATE, so the intake still isolates the command.
 */
describe('round references of bets and decisions', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const round = randomUUID();

  const bet = (roundId: string, tableId = TABLE, id = randomUUID()) =>
    ds.query(
      `INSERT INTO bets (id, round_id, table_id, player_id, bet_type, amount, deducted, currency, status, placed_at)
       VALUES ($1, $2, $3, 'p1', 'main', 100, 100, 'EUR', 'accepted', now())`,
      [id, roundId, tableId],
    );
  const decision = (roundId: string) =>
    ds.query(
      `INSERT INTO decisions (round_id, player_id, action, automatic, decided_at)
       SELECT r, 'p1', 'stand', false, now() FROM unnest($1::uuid[]) AS r`,
      [[round, roundId]],
    );
  const refused = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as { code?: string } | undefined)?.code).toBe('23503');
    expect(isCommandSpecificFailure(error)).toBe(true);
  };

  beforeAll(async () => {
    db = await createTestDatabase('refs');
    ds = await db.migrated();
    await insertStudioTables(ds, [TABLE], 'infinite-blackjack', 'EUR');
    const shoe = randomUUID();
    await ds.query(
      `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
       VALUES ($1, $2, 1, 8, 'open', now())`,
      [shoe, TABLE],
    );
    await ds.query(
      `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, configuration)
       SELECT $1, $2, $3, 1, 1, game, 'in-progress', 'started', now(), configuration FROM studio_tables WHERE id = $2`,
      [round, TABLE, shoe],
    );
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('takes rows of an existing round and table', async () => {
    await bet(round);
    await ds.query(
      `INSERT INTO decisions (round_id, player_id, action, automatic, decided_at)
       VALUES ($1, 'p1', 'stand', false, now())`,
      [round],
    );
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM bets WHERE round_id = $1`, [
      round,
    ]);
    expect(n).toBe(1);
  });

  it('refuses a bet or a decision of a round that does not exist, writing none of the statement', async () => {
    await refused(bet(randomUUID()));
    await refused(decision(randomUUID()));
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM decisions`);
    expect(n).toBe(1);
  });

  it('refuses a bet of a table that does not exist', async () => {
    await refused(bet(round, 'no-such-table'));
  });

  it('refuses moving a row to another round, and deleting a round rows name', async () => {
    await refused(ds.query(`UPDATE bets SET round_id = $1`, [randomUUID()]));
    await refused(ds.query(`UPDATE decisions SET round_id = $1`, [randomUUID()]));
    await refused(ds.query(`DELETE FROM rounds WHERE id = $1`, [round]));
    // A settlement's update of the status is not such a change.
    await ds.query(`UPDATE bets SET status = 'settled' WHERE round_id = $1`, [round]);
  });
});
