import { topicName } from '@studio/contracts';
import { appendTableEvents } from '@studio/persistence';
import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { ChainedEvent, eventHash, GENESIS_HASH } from '../event-chain';

/** The last event of a table's hash chain (eventNo 0 and the genesis hash before the first). */
export interface ChainHead {
  eventNo: number;
  hash: string;
}

/** An outbox row of a public event (its sequence number is handed out when it is stored). */
export interface OutboxRow {
  eventId: string;
  topic: string;
  roundId: string | null;
  type: string;
  schemaVersion: number;
  payload: unknown;
}

type Query = Pick<EntityManager, 'query'>;

/**
 * The table's hash-chained event log (every event, restricted ones too) and the outbox rows for
 * its public events, written in the same transaction so nothing is announced that is not stored.
 *
 * The owner of a table keeps its chain's last event in memory (`heads`): a transition chains its
 * events to it without reading it first, and the statement that stores them checks it is still
 * the last one. A head is only remembered once its transition committed, and forgotten when a
 * transition fails or the table is (re)loaded.
 */
export class RoundEventsRepository {
  private readonly heads = new Map<string, ChainHead>();

  constructor(private readonly topicPrefix: string) {}

  /** The chain's last event as far as this owner knows, read from the log when not known. */
  async head(db: Query, tableId: string): Promise<ChainHead> {
    const known = this.heads.get(tableId);
    if (known) return known;
    const [last] = await db.query(
      `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
      [tableId],
    );
    return last ? { eventNo: Number(last.event_no), hash: last.hash } : GENESIS;
  }

  remember(tableId: string, head: ChainHead): void {
    this.heads.set(tableId, head);
  }

  forget(tableId: string): void {
    this.heads.delete(tableId);
  }

  /** The events chained after `head`, and the chain's head after them. */
  chain(
    tableId: string,
    events: TableWrites['events'],
    at: Date,
    head: ChainHead,
  ): { rows: ChainedEvent[]; head: ChainHead } {
    let eventNo = head.eventNo;
    let prevHash = head.hash;
    const occurredAt = at.toISOString();
    const rows: ChainedEvent[] = [];
    for (const e of events) {
      eventNo += 1;
      const fields = {
        tableId,
        eventNo,
        roundId: e.roundId,
        type: e.type,
        visibility: e.visibility,
        payload: e.payload,
        actor: e.actor ?? null,
        occurredAt,
      };
      const hash = eventHash(prevHash, fields);
      rows.push({ ...fields, prevHash, hash });
      prevHash = hash;
    }
    return { rows, head: { eventNo, hash: prevHash } };
  }

  /** The outbox rows of the public events. */
  outboxRows(events: TableWrites['events'], newId: () => string): OutboxRow[] {
    return events
      .filter((e) => e.visibility === 'public')
      .map((e) => ({
        eventId: newId(),
        topic: topicName('tableEvents', this.topicPrefix),
        roundId: e.roundId ?? null,
        type: e.type,
        schemaVersion: 1,
        payload: e.payload,
      }));
  }

  /**
   * Appends inside the caller's transaction, chained to the last stored event (read here: the
   * statement-by-statement path); returns the chain's new head.
   */
  async append(
    manager: EntityManager,
    tableId: string,
    events: TableWrites['events'],
    occurredAt: Date,
    newId: () => string,
  ): Promise<ChainHead | undefined> {
    if (events.length === 0) return undefined;
    this.forget(tableId);
    const chained = this.chain(tableId, events, occurredAt, await this.head(manager, tableId));
    await manager.query(
      `INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
       SELECT $2, e."eventNo", e."roundId", e.type, e.visibility, e.payload, e.actor, e."occurredAt", e."prevHash", e.hash
         FROM jsonb_to_recordset($1::jsonb) AS e("eventNo" bigint, "roundId" uuid, type text, visibility text,
              payload jsonb, actor text, "occurredAt" timestamptz, "prevHash" text, hash text)`,
      [JSON.stringify(chained.rows), tableId],
    );
    const published = this.outboxRows(events, newId);
    if (published.length > 0) {
      await appendTableEvents(
        manager,
        published.map((e) => ({
          eventId: e.eventId,
          topic: e.topic,
          tableId,
          roundId: e.roundId ?? undefined,
          type: e.type,
          schemaVersion: e.schemaVersion,
          occurredAt,
          payload: e.payload,
        })),
      );
    }
    return chained.head;
  }
}

const GENESIS: ChainHead = { eventNo: 0, hash: GENESIS_HASH };
