import { DataSource } from 'typeorm';

/** Wakes the owner of a table: payload the table id. */
export const COMMAND_INBOX_CHANNEL = 'studio_command_inbox';
/** Wakes the instance holding an HTTP request: payload the inbox row id. */
export const COMMAND_ANSWERED_CHANNEL = 'studio_command_answered';

export type InboxReplyTo = 'kafka' | 'http';

export interface NewInboxEntry {
  tableId: string;
  /** The command's id (or a generated one for an HTTP command without one). */
  commandId: string;
  replyTo: InboxReplyTo;
  /** The command as the owner needs it to apply and answer it (JSON). */
  command: unknown;
}

export interface InboxEntry extends NewInboxEntry {
  id: string;
}

interface InboxRow {
  id: string;
  table_id: string;
  command_id: string;
  reply_to: InboxReplyTo;
  command: unknown;
}

const toEntry = (row: InboxRow): InboxEntry => ({
  id: String(row.id),
  tableId: row.table_id,
  commandId: row.command_id,
  replyTo: row.reply_to,
  command: row.command,
});

/**
 * The per-table command inbox (migration CommandInbox1764800000000): commands read by an instance
 * that does not drive their table, waiting for the instance that does. Each method is one
 * statement, so one round trip. UPDATE/DELETE ... RETURNING run inside a CTE: TypeORM hands back
 * `[rows, count]` for a bare UPDATE or DELETE, rows for a SELECT.
 */
export class CommandInboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores the commands in the order given and wakes their tables' owners (the NOTIFY is sent at
   * commit). A command already waiting (same table and command id) is not stored twice; the
   * returned list has the ids of the rows stored, by position (undefined: was already there).
   */
  async add(entries: readonly NewInboxEntry[]): Promise<Array<string | undefined>> {
    if (entries.length === 0) return [];
    const rows: Array<{ id: string; ord: string }> = await this.dataSource.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
           WITH ORDINALITY AS t(table_id, command_id, reply_to, command, ord)),
       stored AS (
         INSERT INTO command_inbox (table_id, command_id, reply_to, command)
         SELECT table_id, command_id, reply_to, command FROM input ORDER BY ord
         ON CONFLICT (table_id, command_id) DO NOTHING
         RETURNING id, table_id, command_id)
       SELECT s.id, i.ord, pg_notify('${COMMAND_INBOX_CHANNEL}', s.table_id)
         FROM stored s JOIN input i USING (table_id, command_id)`,
      [
        entries.map((e) => e.tableId),
        entries.map((e) => e.commandId),
        entries.map((e) => e.replyTo),
        entries.map((e) => JSON.stringify(e.command)),
      ],
    );
    const ids: Array<string | undefined> = new Array(entries.length).fill(undefined);
    for (const row of rows) ids[Number(row.ord) - 1] = String(row.id);
    return ids;
  }

  /** A table's commands waiting for an answer, oldest first. */
  async waiting(tableId: string, limit: number): Promise<InboxEntry[]> {
    const rows: InboxRow[] = await this.dataSource.query(
      `SELECT id, table_id, command_id, reply_to, command FROM command_inbox
        WHERE table_id = $1 AND answer IS NULL AND expiring_at IS NULL
        ORDER BY id LIMIT $2`,
      [tableId, limit],
    );
    return rows.map(toEntry);
  }

  /** The tables with commands waiting (the periodic check behind the notifications). */
  async tablesWaiting(): Promise<string[]> {
    const rows: Array<{ table_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT table_id FROM command_inbox WHERE answer IS NULL AND expiring_at IS NULL`,
    );
    return rows.map((r) => r.table_id);
  }

  /** How many commands wait in each table's inbox (the metrics' inbox depth). */
  async waitingPerTable(): Promise<Array<{ tableId: string; waiting: number }>> {
    const rows: Array<{ table_id: string; waiting: number }> = await this.dataSource.query(
      `SELECT table_id, count(*)::int AS waiting FROM command_inbox
        WHERE answer IS NULL AND expiring_at IS NULL GROUP BY table_id`,
    );
    return rows.map((r) => ({ tableId: r.table_id, waiting: r.waiting }));
  }

  /** Answered over Kafka: the rows go. */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `WITH gone AS (DELETE FROM command_inbox WHERE id = ANY($1::bigint[]) RETURNING id)
       SELECT count(*) FROM gone`,
      [ids],
    );
  }

  /** Answers for HTTP requests held by some instance, which is woken to take them. */
  async answer(answers: ReadonlyArray<{ id: string; answer: unknown }>): Promise<void> {
    if (answers.length === 0) return;
    await this.dataSource.query(
      `WITH answered AS (
         UPDATE command_inbox c SET answer = a.answer
           FROM unnest($1::bigint[], $2::jsonb[]) AS a(id, answer)
          WHERE c.id = a.id
          RETURNING c.id)
       SELECT pg_notify('${COMMAND_ANSWERED_CHANNEL}', id::text) FROM answered`,
      [answers.map((a) => a.id), answers.map((a) => JSON.stringify(a.answer))],
    );
  }

  /** Takes (and removes) an HTTP command's answer; undefined while there is none yet. */
  async takeAnswer(id: string): Promise<unknown> {
    const rows: Array<{ answer: unknown }> = await this.dataSource.query(
      `WITH taken AS (
         DELETE FROM command_inbox WHERE id = $1 AND answer IS NOT NULL RETURNING answer)
       SELECT answer FROM taken`,
      [id],
    );
    return rows[0]?.answer;
  }

  /** Withdraws a command nobody answered (its request gave up); false if it was answered after all. */
  async withdraw(id: string): Promise<boolean> {
    const rows = await this.dataSource.query(
      `WITH gone AS (DELETE FROM command_inbox WHERE id = $1 AND answer IS NULL RETURNING id)
       SELECT id FROM gone`,
      [id],
    );
    return rows.length === 1;
  }

  /**
   * Claims commands that waited longer than `waitMs` for a table no instance has held a live lease
   * on for `waitMs` either, to be answered `table-not-driven-here` (and removed) by the claimant. A
   * lease that lapsed more recently may be kept again by its owner: after a database outage longer
   * than the lease's TTL every lease has lapsed, and the first check after it must not answer the
   * commands that waited through the outage before the owners renew. A claim not finished within a
   * minute (the claimant died) is taken again.
   */
  async claimUndriven(waitMs: number, limit: number): Promise<InboxEntry[]> {
    const rows: InboxRow[] = await this.dataSource.query(
      `WITH claimed AS (
       UPDATE command_inbox SET expiring_at = clock_timestamp()
        WHERE id IN (
          SELECT id FROM command_inbox i
           WHERE answer IS NULL
             AND ((expiring_at IS NULL
                   AND received_at < clock_timestamp() - make_interval(secs => $1::double precision / 1000))
                  OR expiring_at < clock_timestamp() - interval '1 minute')
             AND NOT EXISTS (SELECT 1 FROM table_leases l
                              WHERE l.table_id = i.table_id
                                AND l.expires_at >= clock_timestamp()
                                                    - make_interval(secs => $1::double precision / 1000))
           ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, table_id, command_id, reply_to, command)
       SELECT * FROM claimed`,
      [waitMs, limit],
    );
    return rows.map(toEntry).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** HTTP answers nobody took within `keepMs` (the request's instance died): removed. */
  async purgeUntaken(keepMs: number): Promise<number> {
    const rows = await this.dataSource.query(
      `WITH gone AS (
         DELETE FROM command_inbox
          WHERE answer IS NOT NULL
            AND received_at < clock_timestamp() - make_interval(secs => $1::double precision / 1000)
          RETURNING id)
       SELECT id FROM gone`,
      [keepMs],
    );
    return rows.length;
  }
}
