import type { ScannerReading } from '@studio/scanner-protocol';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import {
  LeaseLostError,
  TableLease,
  TableLeaseRepository,
} from '../../src/database/table-lease.repository';
import type { ReadingRecord } from '../../src/history/scanner-history.repository';
import { UNSTORED_READING } from '../../src/history/writer/round-cards.repository';
import { TableStateRepository } from '../../src/history/writer/table-state.repository';
import {
  createTransitionWriter,
  TransitionWriter,
} from '../../src/history/writer/transition-writer';
import {
  emptyWrites,
  MachineOutcome,
  TableState,
  TableWrites,
} from '../../src/table-core/table-machine';
import { eventHash, GENESIS_HASH } from '../../src/tables/event-chain';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const TABLE = 'call-1';
const SHOE = randomUUID();
const ROUND = randomUUID();

function reading(sequence: number): ReadingRecord {
  const raw = Buffer.from(`card ${sequence}`);
  const scanned: ScannerReading = {
    kind: 'card',
    code: 'AS',
    card: { rank: 'A', suit: 'S' },
    raw: new Uint8Array(raw),
    receivedAt: Date.UTC(2026, 10, 30, 12, 0, sequence),
    sequence,
  } as ScannerReading;
  return {
    tableId: TABLE,
    port: '/dev/test',
    wireFormat: 'studio-framed-v1',
    reading: scanned,
    outcome: 'recorded',
  };
}

/** A card reading's transition as the machine writes it (its reading not stored yet). */
function cardOutcome(n: number, extra: Partial<TableWrites> = {}): MachineOutcome {
  const writes: TableWrites = {
    ...emptyWrites(),
    cards: [
      {
        slot: `p${n}`,
        card: 'AS',
        faceDown: false,
        roundId: ROUND,
        shoeId: SHOE,
        readingId: UNSTORED_READING,
      },
    ],
    readingOutcome: { readingId: UNSTORED_READING, outcome: 'applied', detail: { slot: `p${n}` } },
    events: [
      {
        type: 'ReadingProcessed',
        visibility: 'restricted',
        payload: { sequence: n },
        roundId: ROUND,
      },
      { type: 'CardDealt', visibility: 'public', payload: { slot: `p${n}` }, roundId: ROUND },
    ],
    ...extra,
  };
  return { state: { tableId: TABLE, cards: n } as unknown as TableState, writes };
}

/**
 * The one-call write path (studio_commit_transition) against the real PostgreSQL: a card reading's
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

  const newWriter = (): TransitionWriter =>
    createTransitionWriter(ds, new TableStateRepository(ds, leases), 'test').writer;

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

  async function chainIsWhole(): Promise<number> {
    const rows = await ds.query(
      `SELECT table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash
         FROM round_events WHERE table_id = $1 ORDER BY event_no`,
      [TABLE],
    );
    let prev = GENESIS_HASH;
    rows.forEach((r: Record<string, unknown>, i: number) => {
      expect(Number(r.event_no)).toBe(i + 1);
      expect(r.prev_hash).toBe(prev);
      const fields = {
        tableId: r.table_id,
        eventNo: Number(r.event_no),
        roundId: r.round_id,
        type: r.type,
        visibility: r.visibility,
        payload: r.payload,
        actor: r.actor,
        occurredAt: new Date(r.occurred_at as string).toISOString(),
      };
      expect(eventHash(prev, fields as never)).toBe(r.hash);
      prev = r.hash as string;
    });
    return rows.length;
  }

  beforeAll(async () => {
    db = await createTestDatabase('call');
    ds = createStudioDataSource({ url: db.url, poolSize: 4, connectTimeoutMs: 5000 });
    await ds.initialize();
    await ds.runMigrations();
    await ds.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, registered_at, updated_at)
       VALUES ($1, $1, 'pok-deng', 'THB', '{}', 'x', now(), now())`,
      [TABLE],
    );
    leases = new TableLeaseRepository(ds, 60_000);
    lease = (await leases.tryAcquire(TABLE, 'owner-a'))!;
  });

  afterAll(async () => {
    await ds?.destroy();
    await db.drop();
  });

  it('writes a reading with its transition in one statement, in one commit', async () => {
    const writer = newWriter();
    // The first transition (the state's first version) takes the statement path.
    await commit(
      writer,
      cardOutcome(1, {
        newShoe: { id: SHOE, shoeNumber: 1, deckCount: 8 },
        newRound: { id: ROUND, shoeId: SHOE, shoeNumber: 1, roundNumber: 1 },
      }),
      1,
    );
    const queries = jest.spyOn(ds, 'query');
    const transactions = jest.spyOn(ds, 'transaction');
    await commit(writer, cardOutcome(2), 2);
    await commit(writer, cardOutcome(3), 3);
    expect(queries).toHaveBeenCalledTimes(2);
    expect(queries.mock.calls[0][0]).toContain('studio_commit_transition');
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
});
