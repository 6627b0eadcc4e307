import { STUDIO_ENTITIES } from '@studio/persistence';
import { Client } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import { STUDIO_MIGRATIONS } from '../../migrations';

/** Server-side limits that bound every wait on a sick database (all in ms; absent: none). */
export interface DatabaseTimeouts {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export interface DataSourceSettings {
  url: string;
  poolSize: number;
  /** Connecting, and waiting for a free connection of the pool. */
  connectTimeoutMs: number;
  applicationName?: string;
  timeouts?: DatabaseTimeouts;
}

/**
 * How much longer than statement_timeout the client waits for an answer: the server cancels a
 * statement itself (a known outcome: rolled back); only a server (or network) that does not answer
 * at all is cut off here, late enough that a merely slow server has answered by then.
 */
export const READ_TIMEOUT_MARGIN_MS = 2_000;

/** pg's message for a query whose answer did not come within query_timeout. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * A pg client class that drops its connection when an answer does not come in time. pg leaves such a
 * connection in the pool with the query still pending; whatever was sent on it could then still
 * be applied later. Closed, the server rolls the transaction back: nothing half-written, nothing
 * written after the caller was told it failed. The error gets SQLSTATE 08006 (connection failure)
 * so it reads as "database unavailable".
 */
/** Readiness's own probe: it answering says nothing about the service's writes getting through. */
export const READINESS_PROBE = 'SELECT 1 AS ready';

function boundedClient(health: DatabaseHealth): typeof Client {
  return class BoundedClient extends Client {
    override query(...args: unknown[]): never {
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (!(result instanceof Promise)) return result as never;
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown })?.text;
      return result.then(
        (value: unknown) => {
          if (text !== READINESS_PROBE) health.answered();
          return value;
        },
        (error: unknown) => {
          if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) {
            (error as Error & { code?: string }).code = '08006';
            const self = this as unknown as { connection: { stream: { destroy(): void } } };
            self.connection.stream.destroy();
          }
          health.failed(error);
          throw error;
        },
      ) as never;
    }
  };
}

/** A wait that ran out this long ago with nothing tried since no longer counts. */
const FAILURE_MEMORY_MS = 15_000;

/** SQLSTATEs of a wait that ran out: statement_timeout, lock_timeout, a connection cut by us. */
const WAIT_RAN_OUT = new Set(['57014', '55P03', '08006']);

/**
 * The database's last known state as the service's own queries found it: a statement or lock
 * timeout (or an answer that never came) is newer than the last answer. Readiness reads it, so a
 * database that holds the service's writes on a lock turns it 503 although `SELECT 1` answers.
 */
export class DatabaseHealth {
  private lastAnswerAt = 0;
  private lastFailure?: { at: number; message: string };

  answered(): void {
    this.lastAnswerAt = Date.now();
  }

  failed(error: unknown): void {
    const code = (error as { code?: unknown })?.code;
    if (typeof code !== 'string' || !WAIT_RAN_OUT.has(code)) return;
    this.lastFailure = {
      at: Date.now(),
      message: error instanceof Error ? error.message : String(error),
    };
  }

  /** Why the database counts as sick now, if it does: a wait ran out after the last answer. */
  problem(): string | undefined {
    const failure = this.lastFailure;
    if (!failure || failure.at < this.lastAnswerAt) return undefined;
    const ago = Date.now() - failure.at;
    if (ago > FAILURE_MEMORY_MS) return undefined;
    return `a query gave up waiting ${ago} ms ago (${failure.message}); no answer since`;
  }
}

const healthOf = new WeakMap<DataSource, DatabaseHealth>();

/** The health a data source made with timeouts keeps (none without them). */
export function databaseHealth(dataSource: DataSource): DatabaseHealth | undefined {
  return healthOf.get(dataSource);
}

/**
 * Lifts the bounds for one session's long, deliberate waits (migrations waiting on each other's
 * lock, DDL on a big table) and puts them back before the connection returns to the pool.
 */
export async function unbounded<T>(runner: QueryRunner, work: () => Promise<T>): Promise<T> {
  const client = (await runner.connect()) as { connectionParameters?: { query_timeout?: unknown } };
  const readTimeout = client.connectionParameters?.query_timeout;
  if (client.connectionParameters) client.connectionParameters.query_timeout = false;
  await runner.query('SET statement_timeout = 0; SET lock_timeout = 0');
  try {
    return await work();
  } finally {
    if (client.connectionParameters) client.connectionParameters.query_timeout = readTimeout;
    await runner.query('RESET statement_timeout; RESET lock_timeout').catch(() => undefined);
  }
}

/** The pg settings that apply `timeouts` to every connection of a pool. */
export function timeoutOptions(
  timeouts: DatabaseTimeouts,
  health: DatabaseHealth,
): Record<string, unknown> {
  return {
    Client: boundedClient(health),
    statement_timeout: timeouts.statementTimeoutMs,
    lock_timeout: timeouts.lockTimeoutMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
    // A peer that vanished without a FIN is found by the kernel, not by a hung query.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * The one DataSource definition shared by the service, the migration CLI and the tests. Schema
 * changes happen only through migrations: `synchronize` stays off everywhere.
 */
export function createStudioDataSource(settings: DataSourceSettings): DataSource {
  const health = new DatabaseHealth();
  const dataSource = new DataSource({
    type: 'postgres',
    url: settings.url,
    entities: STUDIO_ENTITIES,
    migrations: STUDIO_MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: settings.poolSize,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      application_name: settings.applicationName ?? 'live-dealer-studio',
      ...(settings.timeouts ? timeoutOptions(settings.timeouts, health) : {}),
    },
  });
  if (settings.timeouts) healthOf.set(dataSource, health);
  return dataSource;
}
