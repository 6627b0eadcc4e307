import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { appendTableEvents, NewTableEvent } from '../../src/outbox/outbox-writer';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/**
 * The outbox writer (studio_append_outbox) on a real PostgreSQL: gap-free per-table sequence
 * numbers, atomic appends.
 */
describe('appendTableEvents', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('outbox_writer');
    ds = await db.migrated();
    await insertStudioTables(ds, ['w1', 'w2']);
  });

  afterAll(() => db.drop());

  const events = (tableId: string, n: number): NewTableEvent[] =>
    Array.from({ length: n }, (_, i) => ({
      eventId: randomUUID(),
      topic: 'test.table-events',
      tableId,
      type: 'Test',
      schemaVersion: 1,
      occurredAt: new Date(Date.UTC(2026, 11, 1, 12, 0, 0, i)),
      payload: { i },
    }));

  const seqs = async (tableId: string) =>
    (
      await ds.query(
        `SELECT seq, payload->>'i' AS i FROM outbox WHERE table_id = $1 ORDER BY seq`,
        [tableId],
      )
    ).map((r: { seq: string; i: string }) => [Number(r.seq), Number(r.i)]);

  it('numbers a table’s events 1, 2, 3 … in their order, over several tables', async () => {
    const w1 = events('w1', 2_500);
    await ds.transaction((m) =>
      appendTableEvents(m, [...w1.slice(0, 3), ...events('w2', 2), ...w1.slice(3)]),
    );
    expect(await seqs('w1')).toEqual(w1.map((_, i) => [i + 1, i]));
    expect(await seqs('w2')).toEqual([
      [1, 0],
      [2, 1],
    ]);
  });

  it('appends one table’s events in one statement, no transaction needed; several tables’ need one', async () => {
    await appendTableEvents(ds.manager, events('w2', 1_001));
    expect((await seqs('w2')).map(([seq]: number[]) => seq)).toEqual(
      Array.from({ length: 1_003 }, (_, i) => i + 1),
    );
    await expect(
      appendTableEvents(ds.manager, [...events('w1', 1), ...events('w2', 1)]),
    ).rejects.toThrow('must run inside a transaction');
    expect(await seqs('w1')).toHaveLength(2_500);
  });

  it('refuses an unknown table and writes nothing', async () => {
    await expect(appendTableEvents(ds.manager, events('nope', 2))).rejects.toThrow(
      'Unknown table "nope"',
    );
    expect(await seqs('nope')).toEqual([]);
    // Nor, in a transaction, anything of the tables appended before it.
    await expect(
      ds.transaction((m) => appendTableEvents(m, [...events('w1', 2), ...events('nope', 1)])),
    ).rejects.toThrow('Unknown table "nope"');
    expect(await seqs('w1')).toHaveLength(2_500);
  });
});
