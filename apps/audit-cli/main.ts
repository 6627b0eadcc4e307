import { Pool } from 'pg';
import { loadEnvFile } from '../../src/config/env-file';
import { runAuditCli, USAGE, UsageError } from './audit-cli';
import { readCheckpoints } from './kafka-checkpoints';

/**
 * Audit commands against the studio database (DATABASE_URL, from the environment or `.env` as the
 * service reads it). With the embedded default, start the service with PGLITE_PORT set and point
 * DATABASE_URL at postgres://postgres@127.0.0.1:<port>/postgres.
 */
async function main(): Promise<number> {
  // As the service and the other tools read it: a mistyped ENV_FILE is refused, not passed over.
  loadEnvFile(process.env.ENV_FILE);
  const [command, ...argv] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!command || !url) {
    process.stderr.write(`${url ? '' : 'DATABASE_URL is not set.\n'}${USAGE}\n`);
    return 2;
  }
  // A pool, not one client: the replay reads a round's rows side by side (Promise.all), which
  // one pg Client only queues, with a deprecation warning on every round (an error in pg 9).
  const client = new Pool({ connectionString: url, application_name: 'studio-audit-cli', max: 4 });
  try {
    return await runAuditCli(
      command,
      argv,
      async (sql, params) => (await client.query(sql, params as unknown[])).rows,
      (line) => process.stdout.write(`${line}\n`),
      { read: readCheckpoints, defaultTopicPrefix: process.env.KAFKA_TOPIC_PREFIX },
    );
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    throw error;
  } finally {
    await client.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`audit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
