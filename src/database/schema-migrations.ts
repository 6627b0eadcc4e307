import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';
import { studioFunctionFiles } from '../../migrations/functions';
import { unbounded } from './data-source.factory';
import { applyChangedFunctionFiles, changedFunctionFiles } from './schema-functions';

/** The advisory lock key that serialises migrations between instances (any fixed bigint). */
export const MIGRATION_LOCK = '7305102297001';

/** What a run applied: versioned migrations, then function files (migrations/functions.ts). */
export interface MigrationRun {
  migrations: string[];
  functions: string[];
}

/**
 * Runs the pending migrations, then applies the function files the database does not hold as
 * they are, while holding a session advisory lock: instances started together on a new database
 * (or a new version rolled out at once) would otherwise run the same migration side by side, and
 * all but one fail ("duplicate key ... pg_type"). The others wait, then find nothing pending. The
 * lock, the migrations and the unlock share one connection, so a pool of one suffices; the lock
 * goes with the connection if the process dies.
 */
export function migrateSchema(dataSource: DataSource): Promise<MigrationRun> {
  return underMigrationLock(dataSource, async (executor, runner) => {
    const applied = await executor.executePendingMigrations();
    const functions = await applyChangedFunctionFiles(runner, studioFunctionFiles());
    return { migrations: applied.map((m) => m.name), functions };
  });
}

/**
 * Reverts the last applied migration under the same lock: a revert must not interleave with an
 * instance starting (and migrating) at the same moment. Returns its name, or null if none.
 * Function files are not reverted: the next run applies them again where a down dropped one.
 */
export function revertLastMigration(dataSource: DataSource): Promise<string | null> {
  return underMigrationLock(dataSource, async (executor) => {
    const applied = await executor.getExecutedMigrations();
    if (applied.length === 0) return null;
    await executor.undoLastMigration();
    // getExecutedMigrations lists the newest first.
    return applied[0].name;
  });
}

/** Whether a migration is pending or a function file is not held as it is. */
export async function schemaPending(dataSource: DataSource): Promise<boolean> {
  if (await dataSource.showMigrations()) return true;
  const runner = dataSource.createQueryRunner();
  try {
    return (await changedFunctionFiles(runner, studioFunctionFiles())).length > 0;
  } finally {
    await runner.release();
  }
}

/** How often an instance waiting for another's migrations asks for the lock again. */
const MIGRATION_LOCK_POLL_MS = 100;

/**
 * Takes the migration lock, asking again until it is free rather than waiting inside one
 * statement: a statement waiting for the lock holds a snapshot, and a migration building an index
 * CONCURRENTLY waits for every older snapshot to end, so the two would wait for each other (and
 * PostgreSQL would end one of them as a deadlock).
 */
async function takeMigrationLock(runner: QueryRunner): Promise<void> {
  for (;;) {
    const [row] = await runner.query('SELECT pg_try_advisory_lock($1) AS taken', [MIGRATION_LOCK]);
    if (row.taken) return;
    await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
  }
}

async function underMigrationLock<T>(
  dataSource: DataSource,
  work: (executor: MigrationExecutor, runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    // Waiting for another instance's migrations is no sick database: no statement or lock bound.
    return await unbounded(runner, async () => {
      try {
        await takeMigrationLock(runner);
        const executor = new MigrationExecutor(dataSource, runner);
        executor.transaction = 'each';
        return await work(executor, runner);
      } finally {
        await runner
          .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
          .catch(() => undefined);
      }
    });
  } finally {
    await runner.release();
  }
}
