import type { DataSource } from 'typeorm';
import { oneLine } from '../common/one-line';
import type { ReadinessCheck } from '../health/readiness';
import { schemaPending } from './schema-migrations';

export function databaseCheck(dataSource: DataSource): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      try {
        await dataSource.query('SELECT 1');
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
