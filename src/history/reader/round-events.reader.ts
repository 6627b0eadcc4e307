import type { ChainedEvent, ChainVersion } from '../event-chain';
import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

/** One stored round event as read back from round_events (the hash chain's link). */
export interface StoredChainEvent extends ChainedEvent {
  id: string;
}

interface EventRow {
  id: string;
  table_id: string;
  event_no: string;
  round_id: string | null;
  type: string;
  visibility: string;
  payload: unknown;
  actor: string | null;
  occurred_at: Date;
  prev_hash: string;
  hash: string;
  chain_version: number;
  chain_salt: string | null;
}

const EVENT_COLUMNS = `id, table_id, event_no, round_id, type, visibility, payload, actor,
  occurred_at, prev_hash, hash, chain_version, chain_salt`;

const chainEvent = (r: EventRow): StoredChainEvent => ({
  id: String(r.id),
  tableId: r.table_id,
  eventNo: Number(r.event_no),
  roundId: r.round_id,
  type: r.type,
  visibility: r.visibility,
  payload: r.payload,
  actor: r.actor,
  occurredAt: iso(r.occurred_at)!,
  prevHash: r.prev_hash,
  hash: r.hash,
  chainVersion: Number(r.chain_version) as ChainVersion,
  salt: r.chain_salt,
});

/** round_events, the hash-chained event log, and the tables that have one. */
export class RoundEventsReader {
  constructor(private readonly q: HistoryQuery) {}

  async ofRound(roundId: string): Promise<StoredChainEvent[]> {
    const rows = await this.q<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM round_events WHERE round_id = $1 ORDER BY event_no`,
      [roundId],
    );
    return rows.map(chainEvent);
  }

  /** Up to `limit` events of a table after event number `afterNo`, in chain order. */
  async chainPage(tableId: string, afterNo: number, limit: number): Promise<StoredChainEvent[]> {
    const rows = await this.q<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM round_events
        WHERE table_id = $1 AND event_no > $2 ORDER BY event_no LIMIT ${Math.trunc(limit)}`,
      [tableId, afterNo],
    );
    return rows.map(chainEvent);
  }

  async tableIds(): Promise<string[]> {
    const rows = await this.q<{ id: string }>(`SELECT id FROM studio_tables ORDER BY id`);
    return rows.map((r) => r.id);
  }

  /** How many events follow event `afterNo`, and when the first of them occurred. */
  async tail(
    tableId: string,
    afterNo: number,
  ): Promise<{ events: number; oldestAt: string | null }> {
    const [row] = await this.q<{ n: number; oldest: Date | null }>(
      `SELECT count(*)::int AS n, min(occurred_at) AS oldest FROM round_events
        WHERE table_id = $1 AND event_no > $2`,
      [tableId, afterNo],
    );
    return { events: Number(row?.n ?? 0), oldestAt: iso(row?.oldest ?? null) };
  }

  /**
   * The newest chain head the relay published for the table, as the database records it: the last
   * published outbox row with a head (a round event's envelope `chain`, or a ChainCheckpoint).
   */
  async publishedHead(
    tableId: string,
  ): Promise<{ eventNo: number; hash: string; publishedAt: string } | undefined> {
    const [row] = await this.q<{ event_no: string; hash: string; at: Date }>(
      `SELECT h.event_no, h.hash, h.at FROM outbox_progress p
        CROSS JOIN LATERAL (
              SELECT COALESCE(o.chain_event_no, (o.payload->>'eventNo')::bigint) AS event_no,
                     COALESCE(o.chain_hash, o.payload->>'hash') AS hash, o.occurred_at AS at
                FROM outbox o
               WHERE o.table_id = p.table_id AND o.seq <= p.last_published_seq
                 AND (o.chain_event_no IS NOT NULL OR o.type = 'ChainCheckpoint')
               ORDER BY o.seq DESC LIMIT 1) h
        WHERE p.table_id = $1`,
      [tableId],
    );
    return row
      ? { eventNo: Number(row.event_no), hash: row.hash, publishedAt: iso(row.at)! }
      : undefined;
  }

  /**
   * Up to `limit` events of a table after `afterNo` in chain order, each with whether its round
   * has ended (true for events of no round): what the chain export may show of it. A round has
   * ended when the chain itself says so (its RoundCompleted or RoundEnded event, written in the
   * commit that ended it), not when its `rounds.status` does: a status set back to in progress
   * would otherwise withhold a finished round's events, edited or not, from every verifier (and
   * likewise a shoe's end, for the restricted events of no round).
   */
  async exportPage(
    tableId: string,
    afterNo: number,
    limit: number,
  ): Promise<Array<StoredChainEvent & { roundEnded: boolean }>> {
    const rows = await this.q<EventRow & { ended: boolean }>(
      `WITH page AS (
         SELECT e.id, e.table_id, e.event_no, e.round_id, e.type, e.visibility, e.payload, e.actor,
                e.occurred_at, e.prev_hash, e.hash, e.chain_version, e.chain_salt
           FROM round_events e
          WHERE e.table_id = $1 AND e.event_no > $2 ORDER BY e.event_no LIMIT ${Math.trunc(limit)}),
       ended AS (
         SELECT DISTINCT x.round_id FROM round_events x
          WHERE x.round_id IN (SELECT round_id FROM page WHERE round_id IS NOT NULL)
            AND x.type IN ('RoundCompleted', 'RoundEnded'))
       SELECT p.*,
              CASE WHEN p.round_id IS NOT NULL
                   THEN p.round_id IN (SELECT round_id FROM ended)
                   -- A restricted event of no round (the shoe's burnt card and its reading) is
                   -- face down while its shoe is in play: never revealed, it is shown once the
                   -- chain holds the shoe's end (every shoe ends with ShoeFinished).
                   ELSE p.visibility <> 'restricted' OR EXISTS (
                     SELECT 1 FROM round_events f
                      WHERE f.table_id = p.table_id AND f.event_no > p.event_no
                        AND f.type = 'ShoeFinished')
              END AS ended
         FROM page p ORDER BY p.event_no`,
      [tableId, afterNo],
    );
    return rows.map((r) => ({ ...chainEvent(r), roundEnded: r.ended }));
  }
}
