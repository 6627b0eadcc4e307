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

/**
 * Appends events of one table to the outbox inside the caller's transaction. The table row is
 * locked so that sequence numbers are handed out gap-free and in commit order per table, even when
 * two transactions of the same table race (the second waits for the first).
 */
export async function appendTableEvents(
  manager: EntityManager,
  events: readonly NewTableEvent[],
): Promise<EventEnvelope[]> {
  if (!manager.queryRunner?.isTransactionActive) {
    throw new Error('appendTableEvents must run inside a transaction');
  }
  const envelopes: EventEnvelope[] = [];
  const byTable = new Map<string, NewTableEvent[]>();
  for (const event of events) {
    const list = byTable.get(event.tableId) ?? [];
    list.push(event);
    byTable.set(event.tableId, list);
  }
  for (const [tableId, tableEvents] of byTable) {
    const rows: Array<{ last_event_seq: string }> = await manager.query(
      // A CTE so that the driver returns plain rows (TypeORM wraps bare UPDATE results).
      `WITH bumped AS (
         UPDATE studio_tables SET last_event_seq = last_event_seq + $2 WHERE id = $1 RETURNING last_event_seq
       ) SELECT last_event_seq FROM bumped`,
      [tableId, tableEvents.length],
    );
    if (rows.length !== 1) {
      throw new Error(`Unknown table "${tableId}": cannot append events for it`);
    }
    let seq = Number(rows[0].last_event_seq) - tableEvents.length;
    const entities = tableEvents.map((event) => {
      seq += 1;
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
    });
    // One statement per 1,000 rows from a JSON array: a window's worth of events (thousands) costs
    // a few statements instead of a query builder's thousands of bound parameters.
    for (let i = 0; i < entities.length; i += 1_000) {
      await manager.query(
        `INSERT INTO outbox (event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at, payload, publish_attempts)
         SELECT e.event_id, e.topic, e.table_id, e.round_id, e.seq, e.type, e.schema_version, e.occurred_at, e.payload, 0
           FROM jsonb_to_recordset($1::jsonb) AS e(event_id uuid, topic text, table_id text, round_id text,
                seq bigint, type text, schema_version integer, occurred_at timestamptz, payload jsonb)`,
        [
          JSON.stringify(
            entities.slice(i, i + 1_000).map((e) => ({
              event_id: e.eventId,
              topic: e.topic,
              table_id: e.tableId,
              round_id: e.roundId,
              seq: e.seq,
              type: e.type,
              schema_version: e.schemaVersion,
              occurred_at: e.occurredAt.toISOString(),
              payload: e.payload,
            })),
          ),
        ],
      );
    }
    for (const entity of entities) {
      envelopes.push(toEnvelope(entity));
    }
  }
  return envelopes;
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
