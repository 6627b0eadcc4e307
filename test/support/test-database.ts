import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { migrateSchema } from '../../src/database/schema-migrations';
import { TEST_ADMIN_DATABASE_URL } from './environment';
import { templateDatabaseName } from './template-database';

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

export interface TestDatabaseOptions {
  /**
   * A database with no schema at all, for the tests that watch the migrations themselves run
   * (at a studio's start-up, by instances at once). Any other test file starts from a copy of
   * the run's migrated template: running every migration per file cost seconds each.
   */
  empty?: boolean;
}

let templateReady: Promise<void> | undefined;

/**
 * Creates and migrates the template once per run: the first test file (of any worker) to ask
 * does it under an advisory lock, the others find it there. No connections are allowed to it
 * afterwards: a clone fails while anyone is connected to its template.
 */
function ensureTemplate(name: string): Promise<void> {
  templateReady ??= (async () => {
    const admin = new Client({ connectionString: TEST_ADMIN_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        name,
      ]);
      if (rowCount) return;
      await admin.query(`CREATE DATABASE ${name}`);
      const dataSource = createStudioDataSource({
        url: databaseUrl(name),
        poolSize: 1,
        connectTimeoutMs: 5_000,
      });
      try {
        await dataSource.initialize();
        await migrateSchema(dataSource);
      } finally {
        if (dataSource.isInitialized) await dataSource.destroy();
      }
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    } finally {
      await admin.end();
    }
  })();
  return templateReady;
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own for one test file on the real PostgreSQL server, dropped afterwards, so
 * test files (and concurrent runs) never see each other's rows: a copy of the run's migrated
 * template, or empty when asked (or when no global setup made a template).
 */
export async function createTestDatabase(
  label: string,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const name = `studio_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const template = options.empty ? undefined : templateDatabaseName();
  if (template) await ensureTemplate(template);
  await adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = databaseUrl(name);
  const pools: Pool[] = [];
  const dataSources: DataSource[] = [];
  return {
    name,
    url,
    pool: (max = 4) => {
      const pool = new Pool({ connectionString: url, max });
      pools.push(pool);
      return pool;
    },
    migrated: async () => {
      const dataSource = createStudioDataSource({
        url,
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
