import type { DataSource } from 'typeorm';
import { oneLine } from '../common/one-line';
import type { ReadinessCheck } from '../health/readiness';
import { databaseHealth, READINESS_PROBE } from './data-source.factory';
import { schemaPending } from './schema-migrations';

/**
 * Ready while the database answers and the service's own last wait on it did not run out (a lock
 * held by another client blocks writes while `SELECT 1` still answers). runReadiness bounds the
 * probe itself, so a database that hangs turns this 503 within a second.
 */
export function databaseCheck(dataSource: DataSource): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      try {
        const problem = databaseHealth(dataSource)?.problem();
        if (problem) return { status: 'error', message: `database not usable: ${problem}` };
        await dataSource.query(READINESS_PROBE);
        return { status: 'ok' };
      } catch (error) {
        return { status: 'error', message: `database unreachable: ${oneLine(error)}` };
      }
    },
  };
}

export function migrationsCheck(dataSource: DataSource): ReadinessCheck {
  return {
    name: 'migrations',
    async check() {
      try {
        // A function file not applied counts: the service would run the previous function.
        const pending = await schemaPending(dataSource);
        return pending
          ? {
              status: 'error',
              message: 'migrations or function files are pending: run `npm run migration:run`',
            }
          : { status: 'ok' };
      } catch (error) {
        return { status: 'error', message: `cannot read migrations: ${oneLine(error)}` };
      }
    },
  };
}
