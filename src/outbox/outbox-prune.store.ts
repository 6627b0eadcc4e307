import type { DataSource } from 'typeorm';

/** Only one pruner at a time across instances on one database; the others skip their turn. */
export const PRUNE_LOCK_KEY = 0x5354_5052; // "STPR"

/** The tables and how far each is published (rows at or below that seq are only a copy now). */
const PUBLISHED_SQL = `SELECT table_id AS "tableId", last_published_seq::text AS seq FROM outbox_progress`;

/**
 * One batch of one table: its oldest `limit` published rows in seq order (the (table_id, seq)
 * index, so a batch never reads more than `limit` rows, however long the outbox), of which those
 * older than the cut-off are deleted. Seq order is time order within a table, so a batch that
 * deletes fewer than `limit` rows has reached the rows still kept.
 */
const PRUNE_SQL = `
  WITH head AS (
    SELECT id, occurred_at FROM outbox
     WHERE table_id = $1 AND seq <= $2
     ORDER BY seq LIMIT $3),
  gone AS (
    DELETE FROM outbox o USING head
     WHERE o.id = head.id AND head.occurred_at < $4
    RETURNING 1)
  SELECT count(*)::int AS deleted FROM gone`;

export interface PublishedUpTo {
  tableId: string;
  seq: number;
}

/** The pruner's SQL: what is published, and batched deletes under the pruners' lock. */
export class OutboxPruneStore {
  constructor(private readonly dataSource: Pick<DataSource, 'query' | 'transaction'>) {}

  async published(): Promise<PublishedUpTo[]> {
    const rows = (await this.dataSource.query(PUBLISHED_SQL)) as Array<{
      tableId: string;
      seq: string;
    }>;
    return rows.map((r) => ({ tableId: r.tableId, seq: Number(r.seq) }));
  }

  /**
   * Deletes one batch in a transaction of its own (short locks, a crash loses at most one
   * batch's work); null when another instance's pruner holds the lock.
   */
  async pruneBatch(upTo: PublishedUpTo, before: Date, limit: number): Promise<number | null> {
    return this.dataSource.transaction(async (m) => {
      const [{ locked }] = (await m.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        PRUNE_LOCK_KEY,
      ])) as Array<{ locked: boolean }>;
      if (!locked) return null;
      const [{ deleted }] = (await m.query(PRUNE_SQL, [
        upTo.tableId,
        upTo.seq,
        limit,
        before,
      ])) as Array<{ deleted: number }>;
      return deleted;
    });
  }
}
