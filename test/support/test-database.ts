import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { migrateSchema } from '../../src/database/schema-migrations';
import { TEST_ADMIN_DATABASE_URL } from './environment';

export interface TestDatabase {
  name: string;
  url: string;
  /** A pool on this database that drop() closes, every connection gone, before dropping. */
  pool(max?: number): Pool;
  /**
   * The studio's DataSource on this database, migrated as the service migrates (versioned
   * migrations, then function files); drop() destroys it.
   */
  migrated(): Promise<DataSource>;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file on the real PostgreSQL server, dropped afterwards, so
 * test files (and concurrent runs) never see each other's rows.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `studio_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const pools: Pool[] = [];
  const dataSources: DataSource[] = [];
  return {
    name,
    url: url.toString(),
    pool: (max = 4) => {
      const pool = new Pool({ connectionString: url.toString(), max });
      pools.push(pool);
      return pool;
    },
    migrated: async () => {
      const dataSource = createStudioDataSource({
        url: url.toString(),
        poolSize: 4,
        connectTimeoutMs: 5_000,
      });
      dataSources.push(dataSource);
      await dataSource.initialize();
      await migrateSchema(dataSource);
      return dataSource;
    },
    drop: async () => {
      for (const dataSource of dataSources) {
        if (dataSource.isInitialized) await dataSource.destroy();
      }
      for (const pool of pools) await closePool(pool);
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * Registers bare tables (no configuration) so that history rows naming them can be written: the
 * tables of tests that drive the repositories without starting the studio.
 */
export async function insertStudioTables(
  dataSource: DataSource,
  ids: readonly string[],
  game = 'pok-deng',
  currency = 'THB',
): Promise<void> {
  await dataSource.query(
    `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, registered_at, updated_at)
     SELECT id, id, $2, $3, '{}', 'x', now(), now() FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) ORDER BY n`,
    [ids, game, currency],
  );
}

/**
 * pg-pool's end() resolves when its clients are asked to end, not when their sockets have closed;
 * a DROP ... WITH (FORCE) right after it terminates a connection still closing, and that error
 * reaches the pool with no one listening (an unhandled error that fails the test file). So wait
 * for every client's 'remove'.
 */
async function closePool(pool: Pool): Promise<void> {
  if (pool.ended) return;
  const open = pool.totalCount;
  const removed = new Promise<void>((resolve) => {
    let left = open;
    if (left === 0) resolve();
    pool.on('remove', () => {
      left -= 1;
      if (left === 0) resolve();
    });
  });
  if (!pool.ending) await pool.end();
  await removed;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
