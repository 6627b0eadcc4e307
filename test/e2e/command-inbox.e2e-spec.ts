import { DataSource } from 'typeorm';
import { CommandInboxRepository, InboxEntry } from '../../src/database/command-inbox.repository';
import { TableLeaseRepository } from '../../src/database/table-lease.repository';
import { OwnershipListener, TableOwnership } from '../../src/tables/table-ownership';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/** The command inbox and the lease handover against a real PostgreSQL. */
describe('command inbox and lease handover', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let inbox: CommandInboxRepository;
  let leases: TableLeaseRepository;

  beforeAll(async () => {
    db = await createTestDatabase('inbox');
    ds = await db.migrated();
    await insertStudioTables(ds, ['t1', 't2', 't3', 't4', 't5', 't6']);
    inbox = new CommandInboxRepository(ds);
    leases = new TableLeaseRepository(ds, 60_000);
  });

  afterAll(async () => {
    await db.drop();
  });

  const entry = (tableId: string, commandId: string, replyTo: 'kafka' | 'http' = 'kafka') => ({
    tableId,
    commandId,
    replyTo,
    command: { via: replyTo, n: commandId },
  });

  it('stores each command once, in order, and hands HTTP answers over once', async () => {
    const ids = await inbox.add([entry('t1', 'a'), entry('t1', 'b'), entry('t2', 'c', 'http')]);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    // The same command read again (a redelivery) is not stored twice.
    expect(await inbox.add([entry('t1', 'b'), entry('t1', 'd')])).toEqual([
      undefined,
      expect.any(String),
    ]);
    expect((await inbox.waiting('t1', 10)).map((e) => e.commandId)).toEqual(['a', 'b', 'd']);
    expect((await inbox.tablesWaiting()).sort()).toEqual(['t1', 't2']);

    const [http] = await inbox.waiting('t2', 10);
    expect(http.command).toEqual({ via: 'http', n: 'c' });
    expect(await inbox.takeAnswer(http.id)).toBeUndefined();
    await inbox.answer([{ id: http.id, answer: { accepted: true, reply: { betId: 'x' } } }]);
    expect(await inbox.waiting('t2', 10)).toEqual([]);
    expect(await inbox.withdraw(http.id)).toBe(false);
    expect(await inbox.takeAnswer(http.id)).toEqual({ accepted: true, reply: { betId: 'x' } });
    expect(await inbox.takeAnswer(http.id)).toBeUndefined();

    const t1 = await inbox.waiting('t1', 10);
    await inbox.remove(t1.map((e) => e.id));
    expect(await inbox.waiting('t1', 10)).toEqual([]);
  });

  it('expires commands only for tables no instance holds, once', async () => {
    await inbox.add([entry('t3', 'held'), entry('t4', 'orphan')]);
    const lease = await leases.tryAcquire('t3', 'instance-x');
    expect(lease).toBeDefined();
    await new Promise((r) => setTimeout(r, 50));
    const claimed = await inbox.claimUndriven(10, 100);
    expect(claimed.map((e) => `${e.tableId}/${e.commandId}`)).toEqual(['t4/orphan']);
    // Claimed: nobody else claims it, and its table's owner (when one comes) does not apply it.
    expect(await inbox.claimUndriven(10, 100)).toEqual([]);
    expect(await inbox.waiting('t4', 10)).toEqual([]);
    expect((await inbox.waiting('t3', 10)).map((e) => e.commandId)).toEqual(['held']);
    // A command waiting less than the limit is not claimed.
    await inbox.add([entry('t4', 'fresh')]);
    expect(await inbox.claimUndriven(60_000, 100)).toEqual([]);
  });

  it('does not expire commands for a table whose lease lapsed less than the wait ago (its owner may keep it after an outage)', async () => {
    const waitMs = 300;
    await inbox.add([entry('t6', 'through-an-outage')]);
    await new Promise((r) => setTimeout(r, waitMs));
    const short = new TableLeaseRepository(ds, 20);
    expect(await short.tryAcquire('t6', 'instance-y')).toBeDefined();
    await new Promise((r) => setTimeout(r, 60)); // the lease has lapsed, the command waited longer
    // (The earlier test's `fresh` command for t4, a table nobody holds, may be claimed here too.)
    const t6 = (claimed: InboxEntry[]) =>
      claimed.filter((e) => e.tableId === 't6').map((e) => e.commandId);
    expect(t6(await inbox.claimUndriven(waitMs, 100))).toEqual([]);
    await new Promise((r) => setTimeout(r, waitMs)); // lapsed for longer than the wait: nobody drives it
    expect(t6(await inbox.claimUndriven(waitMs, 100))).toEqual(['through-an-outage']);
  });

  it('tells the next owner whether the last one released the table or let its lease expire', async () => {
    const short = new TableLeaseRepository(ds, 1_000);
    const first = await short.tryAcquire('t5', 'instance-a');
    expect(first).toMatchObject({ epoch: 1, handedOver: true });
    await short.release(first!);
    expect(await short.tryAcquire('t5', 'instance-b')).toMatchObject({
      epoch: 2,
      handedOver: true,
    });
    // instance-b dies: its lease expires unreleased.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await short.tryAcquire('t5', 'instance-c')).toMatchObject({
      epoch: 3,
      handedOver: false,
    });
  });

  const owned = (log: Set<string>): OwnershipListener => ({
    acquired: (l) => void log.add(l.tableId),
    lost: (id) => void log.delete(id),
  });

  it('shares the tables out evenly among live instances and hands over the excess', async () => {
    const tables = ['t1', 't2', 't3', 't4', 't5', 't6'];
    await ds.query(`DELETE FROM table_leases`);
    const repo = new TableLeaseRepository(ds, 5_000);
    const a = new Set<string>();
    const b = new Set<string>();
    const balancing = { ttlMs: 5_000, canHandOver: () => true, sharedDatabase: true };
    const ownerA = new TableOwnership(repo, 'share-a', tables, owned(a), 60_000, balancing);
    const ownerB = new TableOwnership(repo, 'share-b', tables, owned(b), 60_000, balancing);
    await ownerA.tick();
    expect(a.size).toBe(6);
    await ownerB.tick(); // B counts two instances: takes nothing yet (all held)
    for (let i = 0; i < 4; i += 1) {
      await ownerA.tick(); // A is above its share of 3: hands one over per round
      await ownerB.tick();
    }
    expect([a.size, b.size]).toEqual([3, 3]);
    expect([...a].some((id) => b.has(id))).toBe(false);
    // B stops gracefully: A takes its tables back, each handed over.
    await ownerB.stop();
    await ownerA.tick();
    expect(a.size).toBe(6);
    await ownerA.stop();
  });

  it('refuses a second live process under one instance id, and fences a crashed predecessor out', async () => {
    await ds.query(`DELETE FROM studio_instances`);
    await ds.query(`DELETE FROM table_leases`);
    const repo = new TableLeaseRepository(ds, 1_000);
    const balancing = { ttlMs: 1_000, canHandOver: () => true, sharedDatabase: true };
    const first = new TableOwnership(repo, 'same-id', ['t1'], owned(new Set()), 300, balancing);
    await first.start();
    try {
      const held = first.lease('t1')!;
      expect(held).toMatchObject({ owner: 'same-id' });
      // A copy of the configuration started elsewhere: refused once the TTL shows the first live.
      const copy = new TableOwnership(repo, 'same-id', ['t1'], owned(new Set()), 300, balancing);
      await expect(copy.start()).rejects.toThrow(
        'STUDIO_INSTANCE_ID "same-id" is in use by another live instance',
      );
      expect(await repo.current('t1')).toMatchObject({ owner: 'same-id', epoch: held.epoch });
    } finally {
      await first.stop();
    }

    // A process that dies (it renews no more) is waited out by its restart, which takes the
    // table under a new epoch: the dead one's writes, were it only paused, are refused.
    const dying = new TableOwnership(repo, 'crashy', ['t2'], owned(new Set()), 300, balancing);
    await dying.tick();
    const before = dying.lease('t2')!;
    const restarted = new Set<string>();
    const restart = new TableOwnership(repo, 'crashy', ['t2'], owned(restarted), 300, balancing);
    await restart.start();
    expect(restarted.has('t2')).toBe(true);
    expect(restart.lease('t2')).toMatchObject({ epoch: before.epoch + 1, handedOver: false });
    await restart.stop();
  });
});
