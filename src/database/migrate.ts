import 'reflect-metadata';
import { oneLine } from '../common/one-line';
import { loadEnvFile } from '../config/env-file';
import { loadStudioConfig } from '../config/studio-config';
import { DatabaseConnection } from './database-connection';

/**
 * Migration CLI on the same configuration and DataSource as the service:
 *   npm run migration:run | migration:revert | migration:show
 * With no DATABASE_URL it works on the embedded PGlite data folder.
 */
async function main(command: string): Promise<void> {
  loadEnvFile(process.env.ENV_FILE);
  const config = loadStudioConfig(process.env);
  const db = await DatabaseConnection.open(config.database, 'studio:migrations');
  try {
    if (command === 'run') {
      const { migrations, functions } = await db.runMigrations({
        waiting: (holder) =>
          console.log(`Waiting for the migration lock held by ${holder ?? 'another session'}`),
      });
      console.log(
        migrations.length ? `Applied: ${migrations.join(', ')}` : 'No pending migrations',
      );
      if (functions.length) console.log(`Functions applied: ${functions.join(', ')}`);
    } else if (command === 'revert') {
      const reverted = await db.revertLastMigration();
      console.log(reverted ? `Reverted: ${reverted}` : 'No migration to revert');
    } else if (command === 'show') {
      const pending = await db.pendingMigrations();
      console.log(pending ? 'Migrations or function files are pending' : 'Schema is up to date');
      process.exitCode = pending ? 1 : 0;
    } else {
      throw new Error(`unknown command "${command}" (use run, revert or show)`);
    }
  } finally {
    await db.close();
  }
}

main(process.argv[2] ?? 'run').catch((error) => {
  process.stderr.write(`Migration failed: ${oneLine(error)}\n`);
  process.exit(1);
});
