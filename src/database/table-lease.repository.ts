import { DataSource, EntityManager } from 'typeorm';

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
  constructor(
    private readonly dataSource: DataSource,
    private readonly ttlMs: number,
  ) {}

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
   * Extends several of our leases in one statement; returns those still ours (the others expired
   * and were taken over). It changes no key column (FOR NO KEY UPDATE), so it does not wait for
   * the table's writes holding the fence (FOR KEY SHARE): a busy table's overlapping commits
   * would otherwise starve it until the lease lapsed. The rows are locked in table order.
   */
  async renewAll(leases: readonly TableLease[]): Promise<TableLease[]> {
    if (leases.length === 0) return [];
    const rows = await this.dataSource.query(
      `WITH locked AS (
         SELECT l.table_id FROM table_leases l
           JOIN unnest($1::text[], $2::text[], $3::bigint[]) AS mine(table_id, owner, epoch)
             ON l.table_id = mine.table_id AND l.owner = mine.owner AND l.epoch = mine.epoch
          WHERE l.expires_at >= clock_timestamp()
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
    const rows: Array<{ live: number; mine: boolean }> = await this.dataSource.query(
      `WITH me AS (
         INSERT INTO studio_instances AS i (instance_id, token, expires_at)
         VALUES ($1, $3, clock_timestamp() + make_interval(secs => $2::double precision / 1000))
         ON CONFLICT (instance_id) DO UPDATE SET expires_at = EXCLUDED.expires_at, token = EXCLUDED.token
          WHERE i.token IS NOT DISTINCT FROM EXCLUDED.token OR i.expires_at < clock_timestamp()
         RETURNING instance_id)
       SELECT 1 + count(*)::int AS live, EXISTS (SELECT 1 FROM me) AS mine FROM studio_instances
        WHERE instance_id <> $1 AND expires_at >= clock_timestamp()`,
      [instanceId, ttlMs, token],
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

  async current(tableId: string): Promise<TableLease | undefined> {
    const rows = await this.dataSource.query(
      `SELECT table_id, owner, epoch, expires_at FROM table_leases WHERE table_id = $1`,
      [tableId],
    );
    return rows.length === 1 ? toLease(rows[0]) : undefined;
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

function toLease(row: {
  table_id: string;
  owner: string;
  epoch: string | number;
  expires_at: Date;
}): TableLease {
  return {
    tableId: row.table_id,
    owner: row.owner,
    epoch: Number(row.epoch),
    expiresAt: new Date(row.expires_at),
  };
}
