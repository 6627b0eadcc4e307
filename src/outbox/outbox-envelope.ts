import { EVENT_HEADERS } from '@studio/contracts';
import type { OutgoingMessage } from './event-publisher';

/**
 * One outbox row as the relay reads it: every column as PostgreSQL's text (no entity hydration,
 * no Date or jsonb parsing by the driver), `occurredAt` already formatted as ISO-8601 UTC with
 * milliseconds by the query.
 */
export interface OutboxRow {
  id: string;
  eventId: string;
  topic: string;
  tableId: string;
  roundId: string | null;
  seq: string;
  type: string;
  schemaVersion: number;
  occurredAt: string;
  /** jsonb's text output (with its spaces). */
  payload: string;
}

/**
 * The Kafka message of one row: the contract's envelope (same keys, order and bytes as
 * `JSON.stringify(toEnvelope(row))` of @studio/persistence) assembled around the payload. The
 * payload is re-serialised compactly (JSON.parse + JSON.stringify, both native) so the bytes stay
 * exactly those platforms received before; everything else is string concatenation.
 */
export function toOutgoingMessage(row: OutboxRow): OutgoingMessage {
  const value =
    `{"eventId":"${row.eventId}","type":${JSON.stringify(row.type)},` +
    `"schemaVersion":${row.schemaVersion},"tableId":${JSON.stringify(row.tableId)},` +
    `"seq":${Number(row.seq)},"occurredAt":"${row.occurredAt}",` +
    `"payload":${JSON.stringify(JSON.parse(row.payload))}` +
    (row.roundId ? `,"roundId":${JSON.stringify(row.roundId)}}` : '}');
  return {
    key: row.tableId,
    value,
    headers: {
      [EVENT_HEADERS.eventId]: row.eventId,
      [EVENT_HEADERS.type]: row.type,
      [EVENT_HEADERS.schemaVersion]: String(row.schemaVersion),
    },
  };
}

/** Messages grouped by topic, each group in the rows' order (one send per topic). */
export function groupByTopic(rows: readonly OutboxRow[]): Map<string, OutgoingMessage[]> {
  const byTopic = new Map<string, OutgoingMessage[]>();
  for (const row of rows) {
    let list = byTopic.get(row.topic);
    if (!list) {
      list = [];
      byTopic.set(row.topic, list);
    }
    list.push(toOutgoingMessage(row));
  }
  return byTopic;
}
