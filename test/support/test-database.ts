import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { TEST_ADMIN_DATABASE_URL } from './environment';

export interface TestDatabase {
  name: string;
  url: string;
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
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
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
