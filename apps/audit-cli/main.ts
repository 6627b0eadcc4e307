import { Client } from 'pg';
import { runAuditCli, USAGE, UsageError } from './audit-cli';
import { readCheckpoints } from './kafka-checkpoints';

/**
 * Audit commands against the studio database (DATABASE_URL). With the embedded default, start the
 * service with PGLITE_PORT set and point DATABASE_URL at postgres://postgres@127.0.0.1:<port>/postgres.
 */
async function main(): Promise<number> {
  const [command, ...argv] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!command || !url) {
    process.stderr.write(`${url ? '' : 'DATABASE_URL is not set.\n'}${USAGE}\n`);
    return 2;
  }
  const client = new Client({ connectionString: url, application_name: 'studio-audit-cli' });
  await client.connect();
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
