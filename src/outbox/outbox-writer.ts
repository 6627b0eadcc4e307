import type { EntityManager } from 'typeorm';

/** A public event of a table, as it goes into the outbox (its seq is handed out there). */
export interface NewTableEvent<TPayload = unknown> {
  eventId: string;
  topic: string;
  tableId: string;
  roundId?: string | null;
  type: string;
  schemaVersion: number;
  occurredAt: Date;
  payload: TPayload;
}

/** One event as studio_append_outbox (src/outbox/sql/) takes it, in a JSON array of a table's. */
export interface OutboxRecord {
  eventId: string;
  topic: string;
  roundId: string | null;
  type: string;
  schemaVersion: number;
  occurredAt: string;
  payload: unknown;
  /** A round event's chain head (itself): published in the envelope's `chain`. */
  chain?: { eventNo: number; hash: string };
}

export function outboxRecord(event: Omit<NewTableEvent, 'tableId'>): OutboxRecord {
  return {
    eventId: event.eventId,
    topic: event.topic,
    roundId: event.roundId ?? null,
    type: event.type,
    schemaVersion: event.schemaVersion,
    occurredAt: event.occurredAt.toISOString(),
    payload: event.payload,
  };
}

/**
 * Appends events to the outbox outside a table's transition (a table registered, a scanner's
 * status, a chain checkpoint; a transition's own events go in with its call): one call of
 * studio_append_outbox per table, which hands out the table's sequence numbers gap-free and in
 * commit order. One table's events are one statement, atomic on its own; several tables' need the
 * caller's transaction.
 */
export async function appendTableEvents(
  manager: EntityManager,
  events: readonly NewTableEvent[],
): Promise<void> {
  const byTable = new Map<string, OutboxRecord[]>();
  for (const event of events) {
    const records = byTable.get(event.tableId) ?? [];
    records.push(outboxRecord(event));
    byTable.set(event.tableId, records);
  }
  if (byTable.size > 1 && !manager.queryRunner?.isTransactionActive) {
    throw new Error('appendTableEvents must run inside a transaction for events of several tables');
  }
  for (const [tableId, records] of byTable) {
    await manager.query(`SELECT studio_append_outbox($1, $2::jsonb)`, [
      tableId,
      JSON.stringify(records),
    ]);
  }
}
