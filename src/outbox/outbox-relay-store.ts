import type { PoolClient, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { OutboxRow } from './outbox-envelope';

/** Only one relay (across all instances on one database) publishes at a time, keeping table order. */
export const RELAY_LOCK_KEY = 0x5354_4f42; // "STOB"

/**
 * Leadership of the relay: a session-level advisory lock held on one dedicated connection, which
 * also carries every read and mark of the leader. The lock goes with the connection: if the
 * connection is lost, PostgreSQL releases it and another instance can take over, and this instance
 * fails its next statement (so it stops publishing).
 */
export interface RelayLease {
  /** The oldest unpublished rows in id order, leaving out rows already read and not yet marked. */
  read(limit: number, exclude: readonly string[]): Promise<OutboxRow[]>;
  markPublished(ids: readonly string[], at: Date): Promise<void>;
  recordFailure(ids: readonly string[], message: string): Promise<void>;
  /** Unlocks and returns the connection; if that fails, closes it instead (the lock goes too). */
  end(): Promise<void>;
}

export interface OutboxBacklog {
  pending: number;
  oldest: Date | null;
}

export interface OutboxRelayStore {
  /** The lease, or null while another session holds it. */
  tryLead(): Promise<RelayLease | null>;
  backlog(): Promise<OutboxBacklog>;
}

export const READ_SQL = `
  SELECT id::text AS id, event_id::text AS "eventId", topic, table_id AS "tableId",
         round_id AS "roundId", seq::text AS seq, type, schema_version AS "schemaVersion",
         to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
         payload::text AS payload
    FROM outbox
   WHERE published_at IS NULL AND NOT (id = ANY($2::bigint[]))
   ORDER BY outbox.id
   LIMIT $1`;

const MARK_SQL = `
  UPDATE outbox SET published_at = $2, publish_attempts = publish_attempts + 1, last_error = NULL
   WHERE id = ANY($1::bigint[])`;

const FAILURE_SQL = `
  UPDATE outbox SET publish_attempts = publish_attempts + 1, last_error = $2
   WHERE id = ANY($1::bigint[]) AND published_at IS NULL`;

/** The relay's SQL on PostgreSQL, through the service's connection pool (plain pg queries). */
export class PgOutboxRelayStore implements OutboxRelayStore {
  constructor(private readonly dataSource: DataSource) {}

  async tryLead(): Promise<RelayLease | null> {
    const runner = this.dataSource.createQueryRunner() as PostgresQueryRunner;
    let client: PoolClient;
    try {
      client = (await runner.connect()) as PoolClient;
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS locked',
        [RELAY_LOCK_KEY],
      );
      if (!rows[0].locked) {
        await runner.release();
        return null;
      }
      // A mark lost in a crash only means the batch is published again (same event ids), which
      // at-least-once allows: marks need not wait for the WAL flush.
      await client.query('SET synchronous_commit = off');
    } catch (error) {
      await closeConnection(runner, error);
      throw error;
    }
    return new PgRelayLease(runner, client);
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS pending, min(occurred_at) AS oldest FROM outbox WHERE published_at IS NULL`,
    );
    return { pending: row.pending, oldest: row.oldest ? new Date(row.oldest) : null };
  }
}

class PgRelayLease implements RelayLease {
  /** Statements run one after the other on the connection, in the order they were asked for. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runner: PostgresQueryRunner,
    private readonly client: PoolClient,
  ) {}

  async read(limit: number, exclude: readonly string[]): Promise<OutboxRow[]> {
    return (await this.query<OutboxRow>(READ_SQL, [limit, exclude])).rows;
  }

  async markPublished(ids: readonly string[], at: Date): Promise<void> {
    await this.query(MARK_SQL, [ids, at]);
  }

  async recordFailure(ids: readonly string[], message: string): Promise<void> {
    await this.query(FAILURE_SQL, [ids, message]);
  }

  private query<R extends QueryResultRow>(sql: string, values: unknown[]): Promise<QueryResult<R>> {
    const result = this.tail.then(() => this.client.query<R>(sql, values));
    this.tail = result.catch(() => undefined);
    return result;
  }

  async end(): Promise<void> {
    if (this.runner.isReleased) return;
    try {
      await this.query('RESET synchronous_commit', []);
      await this.query('SELECT pg_advisory_unlock($1)', [RELAY_LOCK_KEY]);
      await this.runner.release();
    } catch (error) {
      // Closing the connection is the one way to be sure the lock is gone with a broken session.
      await closeConnection(this.runner, error);
    }
  }
}

/**
 * Hands the connection back to the pool with an error, so that pg-pool closes it instead of
 * reusing it (TypeORM's public release() always reuses; this method is private in its typings).
 */
async function closeConnection(runner: PostgresQueryRunner, error: unknown): Promise<void> {
  const closable = runner as unknown as { releasePostgresConnection(err?: Error): Promise<void> };
  await closable.releasePostgresConnection(
    error instanceof Error ? error : new Error(String(error)),
  );
}
