import { DataSource, MigrationExecutor } from 'typeorm';
import { oneLine } from '../common/one-line';
import { StartupError } from '../common/config-error';
import { redactUrl } from '../config/env-reader';
import type { DatabaseConfig } from '../config/studio-config';
import { createStudioDataSource } from './data-source.factory';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * PGlite is one single-threaded PostgreSQL session behind the socket; the socket multiplexes client
 * connections message by message, so two clients' extended-protocol exchanges can interleave and
 * break each other ("unnamed prepared statement does not exist"). The service therefore uses one
 * connection to the embedded database; it loses nothing, PGlite runs one query at a time anyway.
 */
export const EMBEDDED_POOL_SIZE = 1;

/** The advisory lock key that serialises migrations between instances (any fixed bigint). */
export const MIGRATION_LOCK = '7305102297001';

/**
 * Opens the database the configuration asks for: the real PostgreSQL at DATABASE_URL, or the
 * embedded PGlite. Fails with a one-line StartupError instead of retrying forever.
 */
export class DatabaseConnection {
  readonly dataSource: DataSource;
  readonly description: string;

  private constructor(
    dataSource: DataSource,
    description: string,
    private readonly embedded?: EmbeddedPostgres,
  ) {
    this.dataSource = dataSource;
    this.description = description;
  }

  static async open(config: DatabaseConfig, applicationName: string): Promise<DatabaseConnection> {
    let url = config.url;
    let embedded: EmbeddedPostgres | undefined;
    let description: string;
    if (url) {
      description = `PostgreSQL at ${redactUrl(url)}`;
    } else {
      embedded = new EmbeddedPostgres(
        config.embedded.dataDir,
        config.embedded.port,
        // Tools (psql, tests) may connect beside the service's own connection.
        EMBEDDED_POOL_SIZE + 4,
      );
      try {
        url = await embedded.start();
      } catch (error) {
        throw new StartupError(
          `Embedded PostgreSQL (PGlite) could not start with data in ${config.embedded.dataDir}: ${oneLine(error)}`,
          { cause: error },
        );
      }
      description = `embedded PGlite with data in ${config.embedded.dataDir}`;
    }
    const dataSource = createStudioDataSource({
      url,
      poolSize: embedded ? EMBEDDED_POOL_SIZE : config.poolSize,
      connectTimeoutMs: config.connectTimeoutMs,
      applicationName,
    });
    try {
      await dataSource.initialize();
      await dataSource.query('SELECT 1');
    } catch (error) {
      await embedded?.stop().catch(() => undefined);
      throw new StartupError(`Database unreachable (${description}): ${oneLine(error)}`, {
        cause: error,
      });
    }
    return new DatabaseConnection(dataSource, description, embedded);
  }

  /**
   * Runs the pending migrations while holding a session advisory lock: instances started together
   * on a new database (or a new version rolled out at once) would otherwise run the same migration
   * side by side, and all but one fail ("duplicate key ... pg_type"). The others wait, then find
   * nothing pending. The lock, the migrations and the unlock share one connection, so a pool of
   * one suffices; the lock goes with the connection if the process dies.
   */
  async runMigrations(): Promise<string[]> {
    return this.underMigrationLock(async (executor) => {
      const applied = await executor.executePendingMigrations();
      return applied.map((m) => m.name);
    });
  }

  /**
   * Reverts the last applied migration under the same lock: a revert must not interleave with an
   * instance starting (and migrating) at the same moment. Returns its name, or null if none.
   */
  async revertLastMigration(): Promise<string | null> {
    return this.underMigrationLock(async (executor) => {
      const applied = await executor.getExecutedMigrations();
      if (applied.length === 0) return null;
      await executor.undoLastMigration();
      // getExecutedMigrations lists the newest first.
      return applied[0].name;
    });
  }

  private async underMigrationLock<T>(
    work: (executor: MigrationExecutor) => Promise<T>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const executor = new MigrationExecutor(this.dataSource, runner);
      executor.transaction = 'each';
      return await work(executor);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await runner.release();
    }
  }

  async pendingMigrations(): Promise<boolean> {
    return this.dataSource.showMigrations();
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
