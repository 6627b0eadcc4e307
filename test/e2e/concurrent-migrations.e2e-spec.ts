import { STUDIO_MIGRATIONS } from '../../migrations';
import { Client } from 'pg';
import { DatabaseConnection } from '../../src/database/database-connection';
import { MIGRATION_LOCK } from '../../src/database/schema-migrations';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

/**
 * A studio's instances are usually started together, also on a new database or right after an
 * upgrade: each runs the pending migrations at start-up, on real PostgreSQL.
 */
describe('migrations run by several instances at once', () => {
  let db: TestDatabase;
  const connections: DatabaseConnection[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('concurrent_migrations', { empty: true });
  });

  afterAll(async () => {
    for (const connection of connections) await connection.close();
    await db.drop();
  });

  it('applies each migration once; every instance starts on the migrated schema', async () => {
    for (let i = 0; i < 4; i++) {
      connections.push(
        await DatabaseConnection.open(
          {
            url: db.url,
            // A pool of one: the lock and the migrations must share the connection.
            poolSize: 1,
            connectTimeoutMs: 5_000,
            // Shorter than the wait for another instance's migrations: that wait is not bounded.
            statementTimeoutMs: 200,
            lockTimeoutMs: 50,
            idleInTransactionTimeoutMs: 10_000,
            runMigrations: true,
            embedded: { dataDir: '', port: 0 },
          },
          `migrations-${i}`,
        ),
      );
    }
    const runs = await Promise.allSettled(connections.map((c) => c.runMigrations()));
    expect(runs.filter((r) => r.status === 'rejected')).toEqual([]);
    const applied = runs.map((r) =>
      r.status === 'fulfilled' ? r.value : { migrations: [], functions: [] },
    );
    // One instance applied them all (and the function files); the others waited and found
    // nothing pending.
    const busy = applied.filter((run) => run.migrations.length + run.functions.length > 0);
    expect(busy.map((run) => run.migrations)).toEqual([STUDIO_MIGRATIONS.map((m) => m.name)]);
    const rows: Array<{ name: string; n: number }> = await connections[0].dataSource.query(
      `SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name`,
    );
    expect(rows).toHaveLength(STUDIO_MIGRATIONS.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    for (const connection of connections) expect(await connection.pendingMigrations()).toBe(false);
  });

  it('reverts the last migration only once the lock is free, and says which it reverted', async () => {
    const migrator = connections[0];
    // Counted on a connection of its own: the migrator's pool of one is the lock's connection.
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    const count = async () =>
      (await holder.query(`SELECT count(*)::int AS n FROM schema_migrations`)).rows[0].n as number;
    const before = await count();
    try {
      // An instance starting (and migrating) holds the lock.
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      let settled = false;
      const revert = migrator.revertLastMigration().finally(() => {
        settled = true;
      });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(settled).toBe(false);
      expect(await count()).toBe(before);
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      const last = STUDIO_MIGRATIONS[STUDIO_MIGRATIONS.length - 1].name;
      expect(await revert).toBe(last);
      expect(await count()).toBe(before - 1);
      // And forward again: the migration it reverted is the one pending.
      // (A migration that changes a function's signature has its file's version created again.)
      expect((await migrator.runMigrations()).migrations).toEqual([last]);
      expect(await migrator.runMigrations()).toEqual({ migrations: [], functions: [] });
    } finally {
      await holder.end();
    }
  });
});
