import { DataSource, EntityManager } from 'typeorm';
import {
  INSTANCE_GONE_CHANNEL,
  LIVENESS_LOCK_NAMESPACE,
  LivenessConnectionSettings,
  LivenessSession,
} from './instance-liveness';

export interface TableLease {
  tableId: string;
  owner: string;
  epoch: number;
  expiresAt: Date;
  /**
   * Set when this lease was taken over from an owner that released it gracefully (every reading it
   * received committed): a round in flight can continue at once. False after an expiry (a crash).
   */
  handedOver?: boolean;
}

/**
 * Leases in PostgreSQL: at most one live owner per table. Expiry uses the database's clock
 * (one clock for every instance); the epoch is the fencing token that every write of a table
 * checks, so an instance that lost its lease (paused, partitioned) cannot write after a takeover.
 */
export class TableLeaseRepository {
  private readonly session?: LivenessSession;

  constructor(
    private readonly dataSource: DataSource,
    private readonly ttlMs: number,
    /** Absent (the embedded database, unit tests): liveness is the TTL alone. */
    liveness?: LivenessConnectionSettings,
  ) {
    if (liveness) this.session = new LivenessSession(liveness);
  }

  /**
   * Opens this instance's liveness session and takes its lock. 'taken': another live process
   * holds this instance id's lock; 'off': no session is configured (the TTL is the only signal).
   * Throws when the database cannot be reached (the caller tries again later).
   */
  async openLiveness(instanceId: string): Promise<'open' | 'taken' | 'off'> {
    if (!this.session) return 'off';
    if (this.session.open) return 'open';
    return (await this.session.lock(instanceId)) ? 'open' : 'taken';
  }

  /** Whether the liveness session is configured but not open (lost: to be opened again). */
  get livenessLost(): boolean {
    return this.session !== undefined && !this.session.open;
  }

  /** Each instance found gone by any instance (a hint, heard on the liveness session). */
  onInstanceGone(listener: (instanceId: string) => void): void {
    if (this.session) this.session.onInstanceGone = listener;
  }

  async closeLiveness(): Promise<void> {
    await this.session?.close();
  }

  /** Renewals and presence go on the liveness session when it is open, else through the pool. */
  private async upkeep<T>(sql: string, params: unknown[]): Promise<T[]> {
    if (this.session?.open) return this.session.query<T>(sql, params);
    return (await this.dataSource.query(sql, params)) as T[];
  }

  /**
   * Takes the lease if it is free, expired, or held under our instance id (by this process's
   * predecessor, restarted after a crash: it need not wait for the expiry). Every take is a new
   * epoch, which fences out whatever process held it before. Returns it, or undefined.
   * `handedOver` says whether the previous holder released it (graceful stop) rather than letting
   * it expire or dying with it.
   */
  async tryAcquire(tableId: string, owner: string): Promise<TableLease | undefined> {
    try {
      return await this.upsertLease(tableId, owner);
    } catch (error) {
      // Two instances inserting the first lease row of a table at once: ON CONFLICT arbitrates the
      // table id only, so the loser trips the (table_id, epoch) index instead. It lost the race.
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  private async upsertLease(tableId: string, owner: string): Promise<TableLease | undefined> {
    const rows: Array<{
      table_id: string;
      owner: string;
      epoch: string;
      expires_at: Date;
      handed_over: boolean | null;
    }> = await this.dataSource.query(
      `WITH previous AS (SELECT released FROM table_leases WHERE table_id = $1)
         INSERT INTO table_leases AS l (table_id, owner, epoch, acquired_at, renewed_at, expires_at)
         VALUES ($1, $2, 1, clock_timestamp(), clock_timestamp(), clock_timestamp() + make_interval(secs => $3::double precision / 1000))
         ON CONFLICT (table_id) DO UPDATE
           SET owner = EXCLUDED.owner,
               released = false,
               epoch = l.epoch + 1,
               acquired_at = clock_timestamp(),
               renewed_at = clock_timestamp(),
               expires_at = EXCLUDED.expires_at
           WHERE l.owner = EXCLUDED.owner OR l.expires_at < clock_timestamp()
         RETURNING table_id, owner, epoch, expires_at,
                   coalesce((SELECT released FROM previous), true) AS handed_over`,
      [tableId, owner, this.ttlMs],
    );
    if (rows.length !== 1) return undefined;
    return { ...toLease(rows[0]), handedOver: rows[0].handed_over === true };
  }

  /** Extends our lease. Undefined means it is no longer ours (expired and taken over). */
  async renew(lease: TableLease): Promise<TableLease | undefined> {
    const rows = await this.dataSource.query(
      `WITH renewed AS (
         UPDATE table_leases
            SET renewed_at = clock_timestamp(),
                expires_at = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
          WHERE table_id = $1 AND owner = $2 AND epoch = $3 AND expires_at >= clock_timestamp()
          RETURNING table_id, owner, epoch, expires_at)
       SELECT * FROM renewed`,
      [lease.tableId, lease.owner, lease.epoch, this.ttlMs],
    );
    return rows.length === 1 ? toLease(rows[0]) : undefined;
  }

  /**
   * Extends several of our leases in one statement; returns those still ours. A lease that lapsed
   * (a database outage longer than the TTL, a stalled process) is still ours when nobody took it
   * since: every take is a new epoch, so the same owner, the same epoch and no release say no other
   * instance drove the table meanwhile, and it is kept under that epoch instead of taken anew.
   * It changes no key column (FOR NO KEY UPDATE), so it does not wait for the table's writes
   * holding the fence (FOR KEY SHARE): a busy table's overlapping commits would otherwise starve
   * it until the lease lapsed. The rows are locked in table order.
   */
  async renewAll(leases: readonly TableLease[]): Promise<TableLease[]> {
    if (leases.length === 0) return [];
    const rows = await this.upkeep<LeaseRow>(
      `WITH locked AS (
         SELECT l.table_id FROM table_leases l
           JOIN unnest($1::text[], $2::text[], $3::bigint[]) AS mine(table_id, owner, epoch)
             ON l.table_id = mine.table_id AND l.owner = mine.owner AND l.epoch = mine.epoch
          WHERE NOT l.released
          ORDER BY l.table_id FOR NO KEY UPDATE OF l),
       renewed AS (
         UPDATE table_leases l
            SET renewed_at = clock_timestamp(),
                expires_at = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
           FROM locked
          WHERE l.table_id = locked.table_id
          RETURNING l.table_id, l.owner, l.epoch, l.expires_at)
       SELECT * FROM renewed`,
      [
        leases.map((l) => l.tableId),
        leases.map((l) => l.owner),
        leases.map((l) => l.epoch),
        this.ttlMs,
      ],
    );
    return rows.map(toLease);
  }

  /**
   * Instances whose liveness lock is gone (their session ended: the process died or its
   * connection was cut) lose their presence and their leases expire now, so the others take
   * their tables at once. One statement, so a process that restarts under that id meanwhile is
   * either seen alive or takes its tables back under a new epoch; it also tells every instance
   * (INSTANCE_GONE_CHANNEL, at commit). Returns who was found dead.
   */
  async expireDeadInstances(instanceId: string): Promise<Array<{ owner: string; tables: number }>> {
    const rows = await this.upkeep<{ owner: string; tables: number }>(
      `WITH dead AS (
         SELECT i.instance_id FROM studio_instances i
          WHERE i.session_liveness AND i.instance_id <> $1
            AND NOT EXISTS (
              SELECT 1 FROM pg_locks k
               WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 2
                 AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                 AND k.classid = $2::int::oid AND k.objid = hashtext(i.instance_id)::oid)
          FOR UPDATE OF i SKIP LOCKED),
       gone AS (
         DELETE FROM studio_instances i USING dead
          WHERE i.instance_id = dead.instance_id RETURNING i.instance_id),
       expired AS (
         UPDATE table_leases l SET expires_at = clock_timestamp() - interval '1 millisecond'
           FROM gone
          WHERE l.owner = gone.instance_id AND NOT l.released AND l.expires_at >= clock_timestamp()
          RETURNING l.owner, l.table_id)
       SELECT g.instance_id AS owner, count(e.table_id)::int AS tables,
              pg_notify($3, g.instance_id) AS notified
         FROM gone g LEFT JOIN expired e ON e.owner = g.instance_id
        GROUP BY g.instance_id`,
      [instanceId, LIVENESS_LOCK_NAMESPACE, INSTANCE_GONE_CHANNEL],
    );
    return rows.map(({ owner, tables }) => ({ owner, tables }));
  }

  /**
   * Of these tables, those nobody holds now (never leased, expired or released) or held under this
   * owner's id (a predecessor of this process): the only ones a claim can win, in the given order.
   */
  async claimable(tableIds: readonly string[], owner: string): Promise<string[]> {
    if (tableIds.length === 0) return [];
    const rows = await this.upkeep<{ table_id: string }>(
      `SELECT t.table_id FROM unnest($1::text[]) WITH ORDINALITY AS t(table_id, n)
         LEFT JOIN table_leases l ON l.table_id = t.table_id
        WHERE l.table_id IS NULL OR l.expires_at < clock_timestamp() OR l.owner = $2
        ORDER BY t.n`,
      [tableIds, owner],
    );
    return rows.map((r) => r.table_id);
  }

  /**
   * The table's last stored reading (any kind, heartbeats included) and its device sequence
   * number: what a new owner's first frame must continue for nothing to have been lost.
   */
  async lastFrame(tableId: string): Promise<{ sequence: number | null } | undefined> {
    const rows: Array<{ device_seq: number | null }> = await this.dataSource.query(
      `SELECT device_seq FROM scanner_readings WHERE table_id = $1
        ORDER BY received_at DESC, id DESC LIMIT 1`,
      [tableId],
    );
    return rows.length === 1 ? { sequence: rows[0].device_seq } : undefined;
  }

  /** Tables per live owner (operators' view of the spread). */
  async distribution(): Promise<Record<string, number>> {
    const rows: Array<{ owner: string; tables: number }> = await this.dataSource.query(
      `SELECT owner, count(*)::int AS tables FROM table_leases
        WHERE expires_at >= clock_timestamp() GROUP BY owner ORDER BY owner`,
    );
    return Object.fromEntries(rows.map((r) => [r.owner, r.tables]));
  }

  /**
   * Gives the lease up at once (graceful shutdown, after the table stopped with every reading it
   * received committed) so another instance need not wait for expiry and may continue the round.
   */
  async release(lease: TableLease): Promise<void> {
    await this.dataSource.query(
      `UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 millisecond', released = true
        WHERE table_id = $1 AND owner = $2 AND epoch = $3`,
      [lease.tableId, lease.owner, lease.epoch],
    );
  }

  /**
   * The fence: inside a table's write transaction, locks the lease row and fails unless it is still
   * ours and live. Call it first in every transaction that changes a table's rounds. A key-share
   * lock: a takeover (a new epoch, a key column) waits for this transaction to end; a renewal
   * (the expiry only) does not (see migration LeaseFenceKeyShare).
   */
  async assertHeld(manager: EntityManager, lease: TableLease): Promise<void> {
    const rows = await manager.query(
      `SELECT 1 FROM table_leases
        WHERE table_id = $1 AND owner = $2 AND epoch = $3 AND expires_at >= clock_timestamp()
        FOR KEY SHARE`,
      [lease.tableId, lease.owner, lease.epoch],
    );
    if (rows.length !== 1) throw new LeaseLostError(lease);
  }

  /**
   * Says this instance is alive for another `ttlMs` and returns how many instances are (itself
   * included), by the database's clock: the tables are shared out among that many.
   */
  async announce(instanceId: string, token: string, ttlMs: number): Promise<Presence> {
    // session_liveness: the others may judge this instance by its lock (held while it is open).
    const rows = await this.upkeep<{ live: number; mine: boolean }>(
      `WITH me AS (
         INSERT INTO studio_instances AS i (instance_id, token, expires_at, session_liveness)
         VALUES ($1, $3, clock_timestamp() + make_interval(secs => $2::double precision / 1000), $4)
         ON CONFLICT (instance_id) DO UPDATE
           SET expires_at = EXCLUDED.expires_at, token = EXCLUDED.token,
               session_liveness = EXCLUDED.session_liveness
          WHERE i.token IS NOT DISTINCT FROM EXCLUDED.token OR i.expires_at < clock_timestamp()
             -- We hold this id's lock, so a predecessor that announced a session has none: dead.
             OR (EXCLUDED.session_liveness AND i.session_liveness)
         RETURNING instance_id)
       SELECT 1 + count(*)::int AS live, EXISTS (SELECT 1 FROM me) AS mine FROM studio_instances
        WHERE instance_id <> $1 AND expires_at >= clock_timestamp()`,
      [instanceId, ttlMs, token, this.session?.open ?? false],
    );
    return { live: rows[0].live, mine: rows[0].mine };
  }

  /** A graceful stop: the others count one instance fewer at once. */
  async withdraw(instanceId: string, token: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM studio_instances WHERE instance_id = $1 AND token = $2`,
      [instanceId, token],
    );
  }

  async current(tableId: string): Promise<(TableLease & { released: boolean }) | undefined> {
    const rows: Array<LeaseRow & { released: boolean }> = await this.dataSource.query(
      `SELECT table_id, owner, epoch, expires_at, released FROM table_leases WHERE table_id = $1`,
      [tableId],
    );
    return rows.length === 1 ? { ...toLease(rows[0]), released: rows[0].released } : undefined;
  }
}

/** The live instances (this one included), and whether this process holds its instance id. */
export interface Presence {
  live: number;
  mine: boolean;
}

export class LeaseLostError extends Error {
  constructor(readonly lease: TableLease) {
    super(`Instance ${lease.owner} no longer holds table ${lease.tableId} (epoch ${lease.epoch})`);
    this.name = 'LeaseLostError';
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

interface LeaseRow {
  table_id: string;
  owner: string;
  epoch: string | number;
  expires_at: Date;
}

function toLease(row: LeaseRow): TableLease {
  return {
    tableId: row.table_id,
    owner: row.owner,
    epoch: Number(row.epoch),
    expiresAt: new Date(row.expires_at),
  };
}
