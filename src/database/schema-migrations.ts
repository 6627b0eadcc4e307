import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';
import { studioFunctionFiles } from '../../migrations/functions';
import { unbounded } from './data-source.factory';
import { applyChangedFunctionFiles, changedFunctionFiles } from './schema-functions';

/** The advisory lock key that serialises migrations between instances (any fixed bigint). */
export const MIGRATION_LOCK = '7305102297001';

/**
 * What a start-up follows of a migration run: the wait for another instance's lock (said while it
 * lasts, with who holds it), the moment the lock is taken, and a stop asked meanwhile (`signal`:
 * the lock is not asked for again, nor kept when taken as the stop came).
 */
export interface MigrationWatch {
  /** The lock is held elsewhere: `holder` names the session holding it, when it can be read. */
  waiting?(holder: string | undefined): void;
  /** The lock is taken: the migrations run now. */
  locked?(): void;
  signal?: AbortSignal;
}

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
export function migrateSchema(
  dataSource: DataSource,
  watch: MigrationWatch = {},
): Promise<MigrationRun> {
  return underMigrationLock(dataSource, watch, async (executor, runner) => {
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
  return underMigrationLock(dataSource, {}, async (executor) => {
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
async function takeMigrationLock(runner: QueryRunner, watch: MigrationWatch): Promise<void> {
  for (let tries = 0; ; tries += 1) {
    watch.signal?.throwIfAborted();
    const [row] = await runner.query('SELECT pg_try_advisory_lock($1) AS taken', [MIGRATION_LOCK]);
    // Taken as a stop came: released again (finally) rather than migrating after the stop.
    watch.signal?.throwIfAborted();
    if (row.taken) return;
    if (tries === 0) watch.waiting?.(await migrationLockHolder(runner).catch(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
  }
}

/** The session holding the migration lock: its application name (`studio:<instance>`) and pid. */
async function migrationLockHolder(runner: QueryRunner): Promise<string | undefined> {
  // A bigint advisory key is stored as its high (classid) and low (objid) 32 bits, objsubid 1.
  const rows: Array<{ pid: number; application_name: string | null }> = await runner.query(
    `SELECT a.pid, a.application_name
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND ((l.classid::bigint << 32) | l.objid::bigint) = $1::bigint`,
    [MIGRATION_LOCK],
  );
  const [holder] = rows;
  if (!holder) return undefined;
  return `${holder.application_name ? `"${holder.application_name}", ` : ''}backend pid ${holder.pid}`;
}

async function underMigrationLock<T>(
  dataSource: DataSource,
  watch: MigrationWatch,
  work: (executor: MigrationExecutor, runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    // Waiting for another instance's migrations is no sick database: no statement or lock bound.
    return await unbounded(runner, async () => {
      try {
        await takeMigrationLock(runner, watch);
        watch.locked?.();
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
