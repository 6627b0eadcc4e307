import type { PoolClient, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { OutboxRow } from './outbox-envelope';

/** Only one relay (across all instances on one database) publishes at a time, keeping table order. */
export const RELAY_LOCK_KEY = 0x5354_4f42; // "STOB"

/** Per table, a seq: how far the table is published, or how far this leader has read. */
export type TableSeqs = ReadonlyMap<string, number>;

/**
 * Leadership of the relay: a session-level advisory lock held on one dedicated connection, which
 * also carries every read and mark of the leader. The lock goes with the connection: if the
 * connection is lost, PostgreSQL releases it and another instance can take over, and this instance
 * fails its next statement (so it stops publishing).
 */
export interface RelayLease {
  /**
   * The oldest unpublished rows in id order: per table, those after its recorded progress and
   * after `readUpTo` (rows this leader already read and has not yet marked).
   */
  read(limit: number, readUpTo: TableSeqs): Promise<OutboxRow[]>;
  /** Records each table as published up to its seq (one progress row per table). */
  markPublished(upTo: TableSeqs, at: Date): Promise<void>;
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

/**
 * $1 limit, $2/$3 the tables and seqs already read. Per table, id order is seq order, so no pending
 * row lies before the lowest id among the tables' next rows (one (table_id, seq) index probe per
 * table); from there the rows are read in id order, leaving out those a table is already past.
 *
 * The "already past" test is a filter on the primary-key scan (a lookup in the tables' few seqs),
 * not a join: the scan then stops after $1 rows. As a join, PostgreSQL hash-joined and sorted the
 * whole backlog on every read (500 ms per read of a 100,000-event backlog instead of 10 ms), and
 * computed every row's text columns before throwing all but $1 of them away.
 */
export const READ_SQL = `
  WITH read_up_to AS (SELECT * FROM unnest($2::text[], $3::bigint[]) AS r(table_id, seq)),
  after AS MATERIALIZED (
    SELECT t.id AS table_id, GREATEST(p.last_published_seq, r.seq, 0) AS seq
      FROM studio_tables t
      LEFT JOIN outbox_progress p ON p.table_id = t.id
      LEFT JOIN read_up_to r ON r.table_id = t.id),
  low AS (
    SELECT min(f.id) AS id
      FROM after a
     CROSS JOIN LATERAL (
           SELECT o.id FROM outbox o WHERE o.table_id = a.table_id AND o.seq > a.seq
            ORDER BY o.seq LIMIT 1) f)
  SELECT o.id::text AS id, o.event_id::text AS "eventId", o.topic, o.table_id AS "tableId",
         o.round_id AS "roundId", o.seq::text AS seq, o.type, o.schema_version AS "schemaVersion",
         to_char(o.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
         o.payload::text AS payload, o.chain_event_no::text AS "chainEventNo", o.chain_hash AS "chainHash"
    FROM outbox o
   WHERE o.id >= (SELECT id FROM low)
     AND o.seq > (SELECT a.seq FROM after a WHERE a.table_id = o.table_id)
   ORDER BY o.id
   LIMIT $1`;

/** Progress only moves forward, even if a mark were ever replayed. */
const MARK_SQL = `
  INSERT INTO outbox_progress (table_id, last_published_seq, published_at)
  SELECT m.table_id, m.seq, $3 FROM unnest($1::text[], $2::bigint[]) AS m(table_id, seq)
  ON CONFLICT (table_id) DO UPDATE
     SET last_published_seq = GREATEST(outbox_progress.last_published_seq, EXCLUDED.last_published_seq),
         published_at = EXCLUDED.published_at`;

const FAILURE_SQL = `
  UPDATE outbox SET publish_attempts = publish_attempts + 1, last_error = $2
   WHERE id = ANY($1::bigint[])`;

const BACKLOG_SQL = `SELECT count(*)::int AS pending, min(occurred_at) AS oldest FROM outbox_pending`;

/**
 * The lock and, only if it was granted, the leader's session settings, in one round trip (the
 * volatile lock call keeps the subquery from being merged, so it runs first). A mark lost in a
 * crash only means the batch is published again (same event ids), which at-least-once allows:
 * marks need not wait for the WAL flush. The read's estimate (every table) would make PostgreSQL
 * JIT-compile it, which costs far more (hundreds of ms) than running it (a few ms).
 */
const LEAD_SQL = `
  SELECT locked,
         CASE WHEN locked THEN set_config('synchronous_commit', 'off', false) END,
         CASE WHEN locked THEN set_config('jit', 'off', false) END
    FROM (SELECT pg_try_advisory_lock($1) AS locked) AS l`;

/** One round trip (simple protocol, no parameters): settings back, then the lock. */
const UNLEAD_SQL = `RESET synchronous_commit; RESET jit; SELECT pg_advisory_unlock(${RELAY_LOCK_KEY})`;

/** The relay's SQL on PostgreSQL, through the service's connection pool (plain pg queries). */
export class PgOutboxRelayStore implements OutboxRelayStore {
  constructor(private readonly dataSource: DataSource) {}

  async tryLead(): Promise<RelayLease | null> {
    const runner = this.dataSource.createQueryRunner() as PostgresQueryRunner;
    let client: PoolClient;
    try {
      client = (await runner.connect()) as PoolClient;
      const { rows } = await client.query<{ locked: boolean }>(LEAD_SQL, [RELAY_LOCK_KEY]);
      if (!rows[0].locked) {
        await runner.release();
        return null;
      }
    } catch (error) {
      await closeConnection(runner, error);
      throw error;
    }
    return new PgRelayLease(runner, client);
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.dataSource.query(BACKLOG_SQL);
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

  async read(limit: number, readUpTo: TableSeqs): Promise<OutboxRow[]> {
    return (await this.query<OutboxRow>(READ_SQL, [limit, ...columns(readUpTo)], 'outbox-read'))
      .rows;
  }

  async markPublished(upTo: TableSeqs, at: Date): Promise<void> {
    await this.query(MARK_SQL, [...columns(upTo), at], 'outbox-mark');
  }

  async recordFailure(ids: readonly string[], message: string): Promise<void> {
    await this.query(FAILURE_SQL, [ids, message]);
  }

  /** A name prepares the statement once per connection: the read plans in about half its run. */
  private query<R extends QueryResultRow>(
    text: string,
    values: unknown[],
    name?: string,
  ): Promise<QueryResult<R>> {
    const result = this.tail.then(() => this.client.query<R>({ name, text, values }));
    this.tail = result.catch(() => undefined);
    return result;
  }

  async end(): Promise<void> {
    if (this.runner.isReleased) return;
    try {
      await this.query(UNLEAD_SQL, []);
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

function columns(seqs: TableSeqs): [string[], number[]] {
  return [[...seqs.keys()], [...seqs.values()]];
}
