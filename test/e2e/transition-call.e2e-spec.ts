import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import {
  LeaseLostError,
  TableLease,
  TableLeaseRepository,
} from '../../src/database/table-lease.repository';
import { historyQueryOf } from '../../src/history/reader/history-query';
import { arrayLiteral } from '../../src/history/writer/transition-call';
import {
  createTransitionWriter,
  TransitionWriter,
} from '../../src/history/writer/transition-writer';
import { MachineOutcome, TableState, TableWrites } from '../../src/table-core/table-machine';
import { cardOutcome as cardOutcomeOf, cardReading } from '../support/card-transition';
import { expectUnbrokenChain } from '../support/history-checks';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const TABLE = 'call-1';
const SHOE = randomUUID();
const ROUND = randomUUID();

const CARDS = { id: TABLE, shoe: SHOE, round: ROUND };
const reading = (sequence: number) => cardReading(CARDS, sequence);
const cardOutcome = (n: number, extra?: Partial<TableWrites>) => cardOutcomeOf(CARDS, n, extra);

/**
 * The write path (a call of studio_commit_transition) against the real PostgreSQL: a card reading’s
 * transition is one statement with its reading row, and the statement itself refuses a writer
 * that lost the lease or whose remembered chain head is stale, leaving nothing behind.
 */
describe('one round trip per transition', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let leases: TableLeaseRepository;
  let lease: TableLease;
  let version = 0;
  let previous: TableState | undefined;

  const newWriter = (): TransitionWriter => createTransitionWriter(ds, 'test');

  async function commit(writer: TransitionWriter, outcome: MachineOutcome, n: number, as = lease) {
    const next = await writer.commit(outcome, {
      lease: as,
      expectedVersion: version,
      previous,
      occurredAt: new Date(Date.UTC(2026, 10, 30, 12, 0, n)),
      newId: () => randomUUID(),
      reading: reading(n),
    });
    version = next;
    previous = outcome.state;
  }

  const chainIsWhole = () => expectUnbrokenChain(historyQueryOf(ds), TABLE);

  beforeAll(async () => {
    db = await createTestDatabase('call');
    ds = await db.migrated();
    await insertStudioTables(ds, [TABLE]);
    leases = new TableLeaseRepository(ds, 60_000);
    lease = (await leases.tryAcquire(TABLE, 'owner-a'))!;
  });

  afterAll(async () => {
    await db.drop();
  });

  it('writes a reading with its transition in one statement, in one commit', async () => {
    const writer = newWriter();
    const queries = jest.spyOn(ds, 'query');
    const transactions = jest.spyOn(ds, 'transaction');
    // The state's first version is one call too; its chain head is read once, then remembered.
    await commit(
      writer,
      cardOutcome(1, {
        newShoe: { id: SHOE, shoeNumber: 1, deckCount: 8 },
        newRound: { id: ROUND, shoeId: SHOE, shoeNumber: 1, roundNumber: 1 },
      }),
      1,
    );
    await commit(writer, cardOutcome(2), 2);
    await commit(writer, cardOutcome(3), 3);
    expect(
      queries.mock.calls.map(([sql]) => sql.match(/studio_commit_\w+|FROM round_events/)?.[0]),
    ).toEqual([
      'FROM round_events',
      'studio_commit_transition',
      'studio_commit_transition',
      'studio_commit_transition',
    ]);
    expect(transactions).not.toHaveBeenCalled();
    queries.mockRestore();
    transactions.mockRestore();

    const cards = await ds.query(
      `SELECT c.slot, r.outcome, r.outcome_detail, r.device_seq FROM round_cards c
         JOIN scanner_readings r ON r.id = c.reading_id WHERE c.table_id = $1 ORDER BY c.id`,
      [TABLE],
    );
    expect(cards).toEqual(
      [1, 2, 3].map((n) => ({
        slot: `p${n}`,
        outcome: 'applied',
        outcome_detail: { slot: `p${n}` },
        device_seq: n,
      })),
    );
    const outbox = await ds.query(`SELECT seq, type FROM outbox WHERE table_id = $1 ORDER BY seq`, [
      TABLE,
    ]);
    expect(outbox.map((o: { seq: string }) => Number(o.seq))).toEqual([1, 2, 3]);
    const [state] = await ds.query(`SELECT version FROM table_state WHERE table_id = $1`, [TABLE]);
    expect(Number(state.version)).toBe(3);
    expect(await chainIsWhole()).toBe(6);
  });

  it('chains to the stored head when the remembered one is stale', async () => {
    const stale = newWriter();
    await commit(stale, cardOutcome(4), 4); // remembers the head after event 8
    // Another writer (a takeover, a restart) appends behind its back.
    await commit(newWriter(), cardOutcome(5), 5);
    // The statement refuses the stale head; the writer chains to the stored one and commits.
    await commit(stale, cardOutcome(6), 6);
    expect(await chainIsWhole()).toBe(12);
  });

  it('refuses a writer that lost the lease, leaving nothing of the transition', async () => {
    const writer = newWriter();
    const counts = async () =>
      ds.query(
        `SELECT (SELECT count(*) FROM scanner_readings)::int AS readings,
                (SELECT count(*) FROM round_events)::int AS events,
                (SELECT count(*) FROM outbox)::int AS outbox,
                (SELECT version FROM table_state WHERE table_id = $1)::int AS version`,
        [TABLE],
      );
    const before = await counts();
    await expect(
      commit(writer, cardOutcome(7), 7, { ...lease, epoch: lease.epoch + 1 }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await counts()).toEqual(before);
    await commit(writer, cardOutcome(7), 7);
    expect(await chainIsWhole()).toBe(14);
  });

  it("reads a command batch's columns back from PostgreSQL exactly as they were sent", async () => {
    // The columns go as array literals built here (arrayLiteral), not through pg's conversion.
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom('"', '\\', ',', '{', '}', ' ', '\n', 'NULL', 'é', '😀') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { nil: null })), async (values) => {
        const [row] = await ds.query(`SELECT $1::text[] AS a`, [arrayLiteral(values)]);
        expect(row.a).toEqual(values);
      }),
      { numRuns: 300 },
    );
    const [typed] = await ds.query(`SELECT $1::boolean[] AS b, $2::bigint[] AS n`, [
      arrayLiteral([true, false, null]),
      arrayLiteral([1, -5, 9_007_199_254_740_991, null]),
    ]);
    expect(typed).toEqual({ b: [true, false, null], n: ['1', '-5', '9007199254740991', null] });
    // A number JSON cannot write is refused by PostgreSQL, never stored as null.
    await expect(ds.query(`SELECT $1::bigint[]`, [arrayLiteral([1, Number.NaN])])).rejects.toThrow(
      /invalid input syntax/,
    );
  });
});
