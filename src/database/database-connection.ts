import type { DataSource } from 'typeorm';
import { oneLine } from '../common/one-line';
import { ConfigError, StartupError } from '../common/config-error';
import { redactUrl } from '../config/env-reader';
import type { DatabaseConfig } from '../config/studio-config';
import { createStudioDataSource } from './data-source.factory';
import { EmbeddedPostgres } from './embedded-postgres';
import {
  migrateSchema,
  MigrationRun,
  MigrationWatch,
  revertLastMigration,
  schemaPending,
} from './schema-migrations';

/**
 * PGlite is one single-threaded PostgreSQL session behind the socket; the socket multiplexes client
 * connections message by message, so two clients' extended-protocol exchanges can interleave and
 * break each other ("unnamed prepared statement does not exist"). The service therefore uses one
 * connection to the embedded database; it loses nothing, PGlite runs one query at a time anyway.
 */
export const EMBEDDED_POOL_SIZE = 1;

/**
 * PGlite runs in this process: a busy process (a start beside initdb, a loaded machine) is slow to
 * answer, not a lost server, and every query waits its turn for the one connection. The network
 * timeout (DATABASE_CONNECT_TIMEOUT_MS, 3 s) failed a start on a loaded CI machine.
 */
export const EMBEDDED_CONNECT_TIMEOUT_MS = 60_000;

/** How long the pool waits to connect, or for a free connection. */
export function poolConnectTimeoutMs(config: DatabaseConfig, embedded: boolean): number {
  return embedded
    ? Math.max(config.connectTimeoutMs, EMBEDDED_CONNECT_TIMEOUT_MS)
    : config.connectTimeoutMs;
}

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
        if (error instanceof ConfigError) throw error; // PGLITE_DATA_DIR itself: said as such
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
      connectTimeoutMs: poolConnectTimeoutMs(config, embedded !== undefined),
      applicationName,
      // PGlite runs one query at a time for every client: a long one is not a sick database.
      ...(embedded
        ? {}
        : {
            timeouts: {
              statementTimeoutMs: config.statementTimeoutMs,
              lockTimeoutMs: config.lockTimeoutMs,
              idleInTransactionTimeoutMs: config.idleInTransactionTimeoutMs,
            },
          }),
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

  /** Migrates the schema under the migration lock (schema-migrations.ts). */
  runMigrations(watch?: MigrationWatch): Promise<MigrationRun> {
    return migrateSchema(this.dataSource, watch);
  }

  revertLastMigration(): Promise<string | null> {
    return revertLastMigration(this.dataSource);
  }

  pendingMigrations(): Promise<boolean> {
    return schemaPending(this.dataSource);
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
