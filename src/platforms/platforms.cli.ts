import 'reflect-metadata';
import { RandomUuidGenerator, SystemClock } from '../clock/clock';
import { oneLine } from '../common/one-line';
import { loadEnvFile } from '../config/env-file';
import { loadStudioConfig } from '../config/studio-config';
import { DatabaseConnection } from '../database/database-connection';
import { PlatformAdminError, runPlatformAdmin } from './platform-admin';
import { PlatformsRepository } from './platforms.repository';

/**
 * The platforms registry from a terminal, on the configured database:
 *   npm run platform -- add casino-a EUR,USD Casino A
 *   npm run platform -- key:create casino-a "rotation 2026-12"
 * (`npm run platform` alone prints every command).
 */
async function main(): Promise<void> {
  loadEnvFile(process.env.ENV_FILE);
  const config = loadStudioConfig(process.env);
  const db = await DatabaseConnection.open(config.database, 'studio:platform-admin');
  try {
    await db.runMigrations();
    const output = await runPlatformAdmin(process.argv.slice(2), {
      repository: new PlatformsRepository(db.dataSource),
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    });
    if (output) console.log(output);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof PlatformAdminError ? error.message : oneLine(error)}\n`);
  process.exit(1);
});
