import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, QueryRunner } from 'typeorm';
import { LeaseLostError, TableLeaseRepository } from '../../src/database/table-lease.repository';
import { OwnershipListener, TableOwnership } from '../../src/tables/table-ownership';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';
import { settleWithin } from '../../src/common/settle-within';

jest.setTimeout(60_000);

class RecordingListener implements OwnershipListener {
  readonly owned = new Set<string>();
  readonly log: string[] = [];
  acquired(lease: { tableId: string; epoch: number }) {
    this.owned.add(lease.tableId);
    this.log.push(`+${lease.tableId}@${lease.epoch}`);
  }
  lost(tableId: string) {
    this.owned.delete(tableId);
    this.log.push(`-${tableId}`);
  }
}

/** Two instances against one real PostgreSQL: one driver per table, takeover after the owner dies. */
describe('table leases', () => {
  const TABLES = ['t1', 't2', 't3', 't4'];
  const TTL_MS = 1500;
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('leases');
    ds = await db.migrated();
    await insertStudioTables(ds, TABLES);
  });

  afterAll(async () => {
    await db.drop();
  });

  it('gives each table to exactly one instance and hands a dead owner’s tables over', async () => {
    const repo = new TableLeaseRepository(ds, TTL_MS);
    const a = new RecordingListener();
    const b = new RecordingListener();
    // Instance A is configured with two tables, B with all four: B takes only what is free.
    const ownershipA = new TableOwnership(repo, 'instance-a', ['t1', 't2'], a, 60_000);
    const ownershipB = new TableOwnership(repo, 'instance-b', TABLES, b, 60_000);
    await ownershipA.tick();
    await ownershipB.tick();
    expect([...a.owned].sort()).toEqual(['t1', 't2']);
    expect([...b.owned].sort()).toEqual(['t3', 't4']);

    // A "dies": it stops renewing without releasing. Until the TTL passes B cannot take its tables.
    await ownershipB.tick();
    expect([...b.owned].sort()).toEqual(['t3', 't4']);
    await new Promise((r) => setTimeout(r, TTL_MS + 200));
    await ownershipB.tick();
    expect([...b.owned].sort()).toEqual(TABLES);
    expect(b.log).toContain('+t1@2');

    // The old owner wakes up: its renewal fails, it is told, and its fenced writes are refused.
    const staleLease = ownershipA.lease('t1')!;
    await ownershipA.tick();
    expect(a.owned.size).toBe(0);
    expect(a.log).toEqual(['+t1@1', '+t2@1', '-t1', '-t2']);
    await expect(
      ds.transaction((manager) => repo.assertHeld(manager, staleLease)),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await expect(
      ds.transaction((manager) => repo.assertHeld(manager, ownershipB.lease('t1')!)),
    ).resolves.toBeUndefined();
    await ownershipA.stop();
    await ownershipB.stop();
  });

  it('releases on graceful stop so another instance takes over at once', async () => {
    const repo = new TableLeaseRepository(ds, 60_000);
    const a = new RecordingListener();
    const b = new RecordingListener();
    const ownershipA = new TableOwnership(repo, 'instance-c', TABLES, a, 60_000);
    const ownershipB = new TableOwnership(repo, 'instance-d', TABLES, b, 60_000);
    await ownershipA.tick();
    expect(a.owned.size).toBe(4);
    await ownershipB.tick();
    expect(b.owned.size).toBe(0);
    await ownershipA.stop();
    expect(a.owned.size).toBe(0);
    await ownershipB.tick();
    expect(b.owned.size).toBe(4);
    await ownershipB.stop();
  });

  it('never lets two instances win the same free table when they race', async () => {
    const repo = new TableLeaseRepository(ds, 60_000);
    // Racing for a table that has no lease row yet (a new studio) as well as for an expired one.
    for (let race = 0; race < 100; race++) {
      if (race % 2 === 0) await ds.query(`DELETE FROM table_leases`);
      else await ds.query(`UPDATE table_leases SET expires_at = now() - interval '1 second'`);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => repo.tryAcquire('t1', `racer-${race}-${i}`)),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(results.filter((r) => r.status === 'fulfilled' && r.value)).toHaveLength(1);
    }
  });
  it('renews a lease while the table’s writes hold its fence; a takeover still waits for them', async () => {
    const repo = new TableLeaseRepository(ds, 60_000);
    await ds.query(`DELETE FROM table_leases`);
    const lease = (await repo.tryAcquire('t1', 'writer'))!;
    // Two of the table's writes in flight, as a busy table has: a transaction past the fence, and
    // a group commit (its function locks the group's lease rows before its transitions).
    const open: QueryRunner[] = [];
    for (const write of [
      (runner: QueryRunner) => repo.assertHeld(runner.manager, lease),
      (runner: QueryRunner) =>
        runner.query(`SELECT studio_commit_transitions($1::jsonb, ARRAY['{}']::json[])`, [
          JSON.stringify([{ tableId: 't1', owner: 'writer', epoch: lease.epoch }]),
        ]),
    ]) {
      const runner = ds.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      await write(runner);
      open.push(runner);
    }
    const outcome = (work: Promise<unknown>, ms: number) =>
      settleWithin(
        work.then(() => 'done'),
        ms,
        'still waiting',
      );
    try {
      // The renewal does not wait for them (it used to, and starved while they overlapped).
      const renewal = repo.renewAll([lease]);
      expect(await outcome(renewal, 5_000)).toBe('done');
      expect(await renewal).toEqual([
        expect.objectContaining({ tableId: 't1', epoch: lease.epoch }),
      ]);

      // The lease lapses; a takeover (a new epoch) waits until both writes have ended, so none
      // of them can commit after another instance took the table.
      await ds.query(`UPDATE table_leases SET expires_at = now() - interval '1 second'`);
      const takeover = repo.tryAcquire('t1', 'successor');
      expect(await outcome(takeover, 1_000)).toBe('still waiting');
      await open[0].commitTransaction();
      expect(await outcome(takeover, 500)).toBe('still waiting');
      await open[1].commitTransaction();
      expect(await takeover).toMatchObject({ owner: 'successor', epoch: lease.epoch + 1 });

      // Every function that locks a lease row does so as the fence above: a later migration that
      // redefines one from an older text with FOR SHARE would bring the starvation back.
      const shareLocking = await ds.query(
        `SELECT proname FROM pg_proc
          WHERE prosrc LIKE '%table_leases%' AND prosrc ~* 'FOR\\s+SHARE'`,
      );
      expect(shareLocking).toEqual([]);
      const keyShareLocking = await ds.query(
        `SELECT proname FROM pg_proc
          WHERE prosrc LIKE '%table_leases%' AND prosrc ~* 'FOR\\s+KEY\\s+SHARE' ORDER BY proname`,
      );
      expect(keyShareLocking.map((r: { proname: string }) => r.proname)).toEqual([
        'studio_commit_transition',
        'studio_commit_transitions',
      ]);
    } finally {
      for (const runner of open) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
  });

  it('keeps a lapsed lease under its epoch when nobody took it, and not when someone did', async () => {
    const repo = new TableLeaseRepository(ds, 60_000);
    await ds.query(`DELETE FROM table_leases`);
    const kept = (await repo.tryAcquire('t1', 'outage'))!;
    const taken = (await repo.tryAcquire('t2', 'outage'))!;
    // A database outage longer than the TTL: both lapse; another instance takes t2 meanwhile.
    await ds.query(`UPDATE table_leases SET expires_at = now() - interval '1 second'`);
    expect(await repo.tryAcquire('t2', 'other')).toMatchObject({ epoch: taken.epoch + 1 });
    const renewed = await repo.renewAll([kept, taken]);
    expect(renewed).toEqual([expect.objectContaining({ tableId: 't1', epoch: kept.epoch })]);
    await expect(
      ds.transaction((manager) => repo.assertHeld(manager, kept)),
    ).resolves.toBeUndefined();
    expect(await repo.current('t2')).toMatchObject({ owner: 'other', released: false });
  });

  it('frees a dead instance’s tables as soon as its database session ends', async () => {
    const url = db.url;
    const settings = { url, applicationName: 'leases-test liveness', connectTimeoutMs: 5_000 };
    const dying = new TableLeaseRepository(ds, 60_000, settings);
    const survivor = new TableLeaseRepository(ds, 60_000, settings);
    await ds.query(`DELETE FROM table_leases`);
    await ds.query(`DELETE FROM studio_instances`);
    expect(await dying.openLiveness('dying')).toBe('open');
    // A second process under the same id cannot hold the lock while the first lives.
    const twin = new TableLeaseRepository(ds, 60_000, settings);
    expect(await twin.openLiveness('dying')).toBe('taken');
    await dying.announce('dying', 'token-1', 60_000);
    expect(await survivor.openLiveness('survivor')).toBe('open');
    await survivor.announce('survivor', 'token-2', 60_000);
    // Every live instance hears who was found gone (on its liveness session), not only the finder.
    const heard: string[] = [];
    const witness = new TableLeaseRepository(ds, 60_000, settings);
    witness.onInstanceGone((id) => heard.push(id));
    expect(await witness.openLiveness('witness')).toBe('open');
    await dying.tryAcquire('t1', 'dying');
    await dying.tryAcquire('t2', 'dying');

    // Alive: nothing to expire, nothing claimable, though the 60 s leases are far from lapsing.
    expect(await survivor.expireDeadInstances('survivor')).toEqual([]);
    expect(await survivor.claimable(['t1', 't2'], 'survivor')).toEqual([]);

    // Its session ends as a killed process's does (the server closes it).
    await ds.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'leases-test liveness' AND pid IN (
          SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 727001
             AND objid = hashtext('dying')::oid)`,
    );
    const dead = await waitForValue(async () => {
      const found = await survivor.expireDeadInstances('survivor');
      return found.length > 0 ? found : undefined;
    });
    expect(dead).toEqual([{ owner: 'dying', tables: 2 }]);
    expect(await waitForValue(async () => (heard.length > 0 ? heard : undefined))).toEqual([
      'dying',
    ]);
    expect(await survivor.claimable(['t1', 't2'], 'survivor')).toEqual(['t1', 't2']);
    expect(await survivor.tryAcquire('t1', 'survivor')).toMatchObject({
      epoch: 2,
      handedOver: false,
    });
    const presence = await ds.query(`SELECT instance_id FROM studio_instances ORDER BY 1`);
    expect(presence).toEqual([{ instance_id: 'survivor' }]);
    await witness.closeLiveness();
    await survivor.closeLiveness();
    await dying.closeLiveness();
    await twin.closeLiveness();
  });
});

async function waitForValue<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error('timed out');
}
