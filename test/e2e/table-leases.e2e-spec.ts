import { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { LeaseLostError, TableLeaseRepository } from '../../src/database/table-lease.repository';
import { OwnershipListener, TableOwnership } from '../../src/tables/table-ownership';
import { createTestDatabase, TestDatabase } from '../support/test-database';

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
    ds = createStudioDataSource({ url: db.url, poolSize: 4, connectTimeoutMs: 5000 });
    await ds.initialize();
    await ds.runMigrations();
    for (const id of TABLES) {
      await ds.query(
        `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, registered_at, updated_at)
         VALUES ($1, $1, 'pok-deng', 'THB', '{}', 'x', now(), now())`,
        [id],
      );
    }
  });

  afterAll(async () => {
    await ds?.destroy();
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
    await ds.query(`DELETE FROM table_leases`);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => repo.tryAcquire('t1', `racer-${i}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
