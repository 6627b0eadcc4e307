import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  LeaseLostError,
  TableLease,
  TableLeaseRepository,
} from '../../src/database/table-lease.repository';
import { historyQueryOf } from '../../src/history/reader/history-query';
import { UNSTORED_READING } from '../../src/table-core/table-writes';
import {
  createTransitionWriter,
  TransitionWriter,
} from '../../src/history/writer/transition-writer';
import { TableState, TableWrites } from '../../src/table-core/table-machine';
import { cardOutcome, cardReading } from '../support/card-transition';
import { expectUnbrokenChain } from '../support/history-checks';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

interface Table {
  id: string;
  shoe: string;
  round: string;
  lease: TableLease;
  version: number;
  previous?: TableState;
  cards: number;
}

/**
 * Group commit against the real PostgreSQL: transitions of several tables queued while a call is
 * out share one call of studio_commit_transitions and one commit, and each table's rows (state
 * versions, hash chain, outbox sequence, readings) come out exactly as one call per transition
 * writes them; a table whose lease was lost commits nothing while the others of its group commit.
 */
describe('group commit of several tables', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let leases: TableLeaseRepository;
  let writer: TransitionWriter;
  const tables: Table[] = [];

  async function commit(table: Table, extra?: Partial<TableWrites>, lease = table.lease) {
    const n = table.cards + 1;
    const outcome = cardOutcome(table, n, extra);
    const version = await writer.commit(outcome, {
      lease,
      expectedVersion: table.version,
      previous: table.previous,
      occurredAt: new Date(Date.UTC(2026, 10, 30, 12, 0, n)),
      newId: () => randomUUID(),
      reading: cardReading(table, n),
    });
    table.version = version;
    table.previous = outcome.state;
    table.cards = n;
  }

  const counts = (tableId: string) =>
    ds.query(
      `SELECT (SELECT count(*) FROM scanner_readings WHERE table_id = $1)::int AS readings,
              (SELECT count(*) FROM round_events WHERE table_id = $1)::int AS events,
              (SELECT count(*) FROM outbox WHERE table_id = $1)::int AS outbox,
              (SELECT version FROM table_state WHERE table_id = $1)::int AS version`,
      [tableId],
    );

  beforeAll(async () => {
    db = await createTestDatabase('group');
    ds = await db.migrated();
    leases = new TableLeaseRepository(ds, 60_000);
    // One call out at a time: what is submitted while it is out goes as one group.
    writer = createTransitionWriter(ds, 'test', { maxInFlight: 1, maxGroup: 32 });
    const ids = ['g-first', 'g-a', 'g-b', 'g-c'];
    await insertStudioTables(ds, ids);
    for (const id of ids) {
      const lease = (await leases.tryAcquire(id, 'owner-a'))!;
      const table: Table = {
        id,
        shoe: randomUUID(),
        round: randomUUID(),
        lease,
        version: 0,
        cards: 0,
      };
      tables.push(table);
      // The state's first version, one table after the other (so each alone).
      await commit(table, {
        newShoe: { id: table.shoe, shoeNumber: 1, deckCount: 8 },
        newRound: { id: table.round, shoeId: table.shoe, shoeNumber: 1, roundNumber: 1 },
      });
    }
  });

  afterAll(async () => {
    await db.drop();
  });

  it('commits the transitions queued together in one call, each table chained as alone', async () => {
    const queries = jest.spyOn(ds, 'query');
    for (let k = 0; k < 10; k += 1) await Promise.all(tables.map((t) => commit(t)));
    const grouped = queries.mock.calls.filter(([sql]) => sql.includes('studio_commit_transitions'));
    queries.mockRestore();
    // g-first goes alone each time; g-a, g-b and g-c, queued meanwhile, share one call.
    expect(grouped).toHaveLength(10);
    for (const [, params] of grouped) {
      expect(
        (JSON.parse(params![0] as string) as Array<{ tableId: string }>).map((t) => t.tableId),
      ).toEqual(['g-a', 'g-b', 'g-c']);
    }

    for (const table of tables) {
      expect(await counts(table.id)).toEqual([
        { readings: 11, events: 22, outbox: 11, version: 11 },
      ]);
      expect(await expectUnbrokenChain(historyQueryOf(ds), table.id)).toBe(22);
      const outbox = await ds.query(`SELECT seq FROM outbox WHERE table_id = $1 ORDER BY seq`, [
        table.id,
      ]);
      expect(outbox.map((o: { seq: string }) => Number(o.seq))).toEqual(
        Array.from({ length: 11 }, (_, i) => i + 1),
      );
      const cards = await ds.query(
        `SELECT c.slot, r.device_seq FROM round_cards c JOIN scanner_readings r ON r.id = c.reading_id
          WHERE c.table_id = $1 ORDER BY c.id`,
        [table.id],
      );
      expect(cards).toEqual(
        Array.from({ length: 11 }, (_, i) => ({ slot: `p${i + 1}`, device_seq: i + 1 })),
      );
    }
  });

  it('fails only the table of a group whose lease was lost; the others commit', async () => {
    const [first, a, b, c] = tables;
    const before = await counts(c.id);
    const queries = jest.spyOn(ds, 'query');
    const results = await Promise.allSettled([
      commit(first),
      commit(a),
      commit(b, {}, { ...b.lease, epoch: b.lease.epoch + 1 }),
      commit(c),
    ]);
    const grouped = queries.mock.calls.filter(([sql]) => sql.includes('studio_commit_transitions'));
    queries.mockRestore();
    expect(grouped).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
    expect(await counts(b.id)).toEqual([{ readings: 11, events: 22, outbox: 11, version: 11 }]);
    expect(await counts(c.id)).toEqual([
      { ...before[0], readings: 12, events: 24, outbox: 12, version: 12 },
    ]);

    // The refused table goes on from where it was, its chain whole.
    await commit(b);
    for (const table of tables) {
      expect(await expectUnbrokenChain(historyQueryOf(ds), table.id)).toBe(24);
    }
  });

  it("fails alone, with the database's own error, a transition refused for another reason", async () => {
    const [first, a, b, c] = tables;
    const before = await counts(a.id);
    const badCard = {
      slot: 'px',
      card: 'AS' as const,
      faceDown: false,
      roundId: randomUUID(), // no such round: the foreign key refuses the card row
      shoeId: a.shoe,
      readingId: UNSTORED_READING,
    };
    const results = await Promise.allSettled([
      commit(first),
      commit(a, { cards: [badCard] }),
      commit(b),
      commit(c),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
    expect(await counts(a.id)).toEqual(before);
    await commit(a);
    for (const table of tables) {
      expect(await expectUnbrokenChain(historyQueryOf(ds), table.id)).toBe(26);
    }
  });
});
