import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { TEST_ADMIN_DATABASE_URL } from './environment';

/**
 * The run's template database: the global setup names it and the teardown drops it; the first
 * test file that clones it creates and migrates it (test-database.ts). This file imports nothing
 * of the service, so the global setup can load it (jest maps the service's module paths only
 * inside test files).
 */
/** The environment variable through which the global setup names the run's template. */
const TEMPLATE_ENV = 'STUDIO_TEST_TEMPLATE_DATABASE';
const TEMPLATE_PREFIX = 'studio_template_';

/**
 * Names this run's template database after this process, so concurrent runs on the shared server
 * each have their own, and drops the templates of runs that are gone (global setup).
 */
export async function nameTemplateDatabase(): Promise<void> {
  await dropTemplates((pid) => !isAlive(pid));
  process.env[TEMPLATE_ENV] = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`;
}

/** The name the global setup chose, if it ran. */
export function templateDatabaseName(): string | undefined {
  return process.env[TEMPLATE_ENV];
}

/** Drops this run's template (global teardown). */
export async function dropTemplateDatabase(): Promise<void> {
  const mine = process.env[TEMPLATE_ENV];
  if (mine) await dropTemplates((_pid, name) => name === mine);
}

async function dropTemplates(which: (pid: number, name: string) => boolean): Promise<void> {
  const client = new Client({ connectionString: TEST_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string; datistemplate: boolean }>(
      `SELECT datname, datistemplate FROM pg_database WHERE datname LIKE '${TEMPLATE_PREFIX}%'`,
    );
    for (const { datname, datistemplate } of rows) {
      const pid = Number(datname.slice(TEMPLATE_PREFIX.length).split('_')[0]);
      if (!which(pid, datname)) continue;
      // A drop cut short (a killed run) leaves the database invalid: no longer a template, and
      // one that only DROP may touch.
      if (datistemplate) await client.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`);
      await client.query(`DROP DATABASE IF EXISTS ${datname}`);
    }
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
