import type { EventEnvelope } from '@studio/contracts';
import type { EntityManager } from 'typeorm';
import { OutboxEventEntity } from './entities/outbox-event.entity';

export interface NewTableEvent<TPayload = unknown> {
  eventId: string;
  topic: string;
  tableId: string;
  roundId?: string;
  type: string;
  schemaVersion: number;
  occurredAt: Date;
  payload: TPayload;
}

/** Rows per statement: a window's worth of events (thousands) costs a few statements. */
const CHUNK = 1_000;

const OUTBOX_COLUMNS = `event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at, payload, publish_attempts`;
const EVENT_RECORD = `e(event_id uuid, topic text, table_id text, round_id text, pos bigint, type text,
  schema_version integer, occurred_at timestamptz, payload jsonb)`;

/**
 * Appends events to the outbox, each table's with sequence numbers handed out gap-free and in
 * commit order (the table's row is locked by the bump: a second transaction of the same table
 * waits for the first). A table's first 1,000 events and the bump are one statement; so a single
 * table's few events may be appended outside a transaction (the statement is atomic), anything
 * larger needs the caller's transaction.
 */
export async function appendTableEvents(
  manager: EntityManager,
  events: readonly NewTableEvent[],
): Promise<EventEnvelope[]> {
  const byTable = new Map<string, NewTableEvent[]>();
  for (const event of events) {
    const list = byTable.get(event.tableId) ?? [];
    list.push(event);
    byTable.set(event.tableId, list);
  }
  const oneStatement = byTable.size <= 1 && events.length <= CHUNK;
  if (!oneStatement && !manager.queryRunner?.isTransactionActive) {
    throw new Error('appendTableEvents must run inside a transaction');
  }
  const envelopes: EventEnvelope[] = [];
  for (const [tableId, tableEvents] of byTable) {
    const count = tableEvents.length;
    // The bump and the first rows in one statement (a CTE, so the driver returns plain rows).
    const rows: Array<{ last_event_seq: string }> = await manager.query(
      `WITH bumped AS (
         UPDATE studio_tables SET last_event_seq = last_event_seq + $2 WHERE id = $1 RETURNING last_event_seq
       ), inserted AS (
         INSERT INTO outbox (${OUTBOX_COLUMNS})
         SELECT e.event_id, e.topic, e.table_id, e.round_id, b.last_event_seq - $2 + e.pos, e.type,
                e.schema_version, e.occurred_at, e.payload, 0
           FROM bumped b, jsonb_to_recordset($3::jsonb) AS ${EVENT_RECORD}
         RETURNING 1
       ) SELECT last_event_seq FROM bumped`,
      [tableId, count, recordsJson(tableEvents, 0)],
    );
    if (rows.length !== 1) {
      throw new Error(`Unknown table "${tableId}": cannot append events for it`);
    }
    const first = Number(rows[0].last_event_seq) - count + 1;
    for (let i = CHUNK; i < count; i += CHUNK) {
      await manager.query(
        `INSERT INTO outbox (${OUTBOX_COLUMNS})
         SELECT e.event_id, e.topic, e.table_id, e.round_id, $2::bigint - 1 + e.pos, e.type,
                e.schema_version, e.occurred_at, e.payload, 0
           FROM jsonb_to_recordset($1::jsonb) AS ${EVENT_RECORD}`,
        [recordsJson(tableEvents, i), first],
      );
    }
    tableEvents.forEach((event, i) => envelopes.push(toEnvelope(toEntity(event, first + i))));
  }
  return envelopes;
}

/** Events from index `from` (up to CHUNK) as JSON records; `pos` is 1-based in the table's list. */
function recordsJson(events: readonly NewTableEvent[], from: number): string {
  return JSON.stringify(
    events.slice(from, from + CHUNK).map((e, k) => ({
      event_id: e.eventId,
      topic: e.topic,
      table_id: e.tableId,
      round_id: e.roundId ?? null,
      pos: from + k + 1,
      type: e.type,
      schema_version: e.schemaVersion,
      occurred_at: e.occurredAt.toISOString(),
      payload: e.payload,
    })),
  );
}

function toEntity(event: NewTableEvent, seq: number): OutboxEventEntity {
  const entity = new OutboxEventEntity();
  entity.eventId = event.eventId;
  entity.topic = event.topic;
  entity.tableId = event.tableId;
  entity.roundId = event.roundId ?? null;
  entity.seq = seq;
  entity.type = event.type;
  entity.schemaVersion = event.schemaVersion;
  entity.occurredAt = event.occurredAt;
  entity.payload = event.payload as Record<string, unknown>;
  entity.publishedAt = null;
  entity.publishAttempts = 0;
  entity.lastError = null;
  return entity;
}

export function toEnvelope(row: OutboxEventEntity): EventEnvelope {
  const envelope: EventEnvelope = {
    eventId: row.eventId,
    type: row.type,
    schemaVersion: row.schemaVersion,
    tableId: row.tableId,
    seq: Number(row.seq),
    occurredAt: new Date(row.occurredAt).toISOString(),
    payload: row.payload,
  };
  if (row.roundId) envelope.roundId = row.roundId;
  return envelope;
}
