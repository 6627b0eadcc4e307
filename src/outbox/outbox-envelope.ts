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
  /** A round event's chain head (docs/chain.md), null for other events. */
  chainEventNo?: string | null;
  chainHash?: string | null;
}

/**
 * The Kafka message of one row: the contract's envelope (EventEnvelope of @studio/contracts, its
 * keys in that order, the bytes JSON.stringify gives it) assembled around the payload, made
 * compact by `compactJsonb` so the bytes stay exactly those platforms received before; everything
 * else is string concatenation.
 */
export function toOutgoingMessage(row: OutboxRow): OutgoingMessage {
  const value =
    `{"eventId":"${row.eventId}","type":${JSON.stringify(row.type)},` +
    `"schemaVersion":${row.schemaVersion},"tableId":${JSON.stringify(row.tableId)},` +
    `"seq":${Number(row.seq)},"occurredAt":"${row.occurredAt}",` +
    `"payload":${compactJsonb(row.payload)}` +
    (row.roundId ? `,"roundId":${JSON.stringify(row.roundId)}` : '') +
    (row.chainHash
      ? `,"chain":{"eventNo":${Number(row.chainEventNo)},"hash":"${row.chainHash}"}}`
      : '}');
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

/**
 * The most a send carries, in bytes of keys, values and headers plus a record's framing. The broker
 * refuses a record batch (one partition's part of a send) over its message.max.bytes, 1 MB by
 * default: keeping the whole send under it keeps every partition's part under it, whatever the
 * partitioner makes of the keys, and a send this large already costs the producer little per event.
 */
export const MAX_SEND_BYTES = 960_000;
/** A record's framing around its key, value and headers (lengths, offsets, timestamp), at most. */
const RECORD_OVERHEAD_BYTES = 40;

/** The messages in order, cut into runs of at most `maxBytes` (a larger message goes alone). */
export function splitBySize(
  messages: readonly OutgoingMessage[],
  maxBytes = MAX_SEND_BYTES,
): OutgoingMessage[][] {
  const sends: OutgoingMessage[][] = [];
  let current: OutgoingMessage[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = messageBytes(message);
    if (current.length > 0 && bytes + size > maxBytes) {
      sends.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length > 0) sends.push(current);
  return sends;
}

function messageBytes(message: OutgoingMessage): number {
  let size = RECORD_OVERHEAD_BYTES + Buffer.byteLength(message.value) + message.key.length * 3;
  for (const name in message.headers) size += 8 + name.length + message.headers[name].length * 3;
  return size;
}

/**
 * jsonb's text output made compact: exactly `JSON.stringify(JSON.parse(text))`, at about half the
 * cost and without building the payload's objects. jsonb prints a space after every ',' and ':'
 * outside strings and nowhere else, and escapes strings as JSON.stringify does (the same short
 * escapes, other control characters as lowercase \u00xx, everything else as is), so dropping those
 * spaces is enough — except for numbers, which JSON.stringify rewrites (2.50 as 2.5, 1e-7, more
 * than 15 digits): a fraction, an exponent or a long digit run falls back to parse and stringify.
 */
export function compactJsonb(text: string): string {
  let out = '';
  let from = 0;
  let digits = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits > 15) return JSON.stringify(JSON.parse(text));
      continue;
    }
    digits = 0;
    if (c === 34) {
      // A string: to its closing quote, over escaped characters.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 32) {
      out += text.slice(from, i);
      from = i + 1;
    } else if (c === 116 || c === 110) {
      i += 3; // true, null
    } else if (c === 102) {
      i += 4; // false
    } else if (c === 46 || c === 101 || c === 69) {
      return JSON.stringify(JSON.parse(text)); // '.', 'e', 'E': a fraction or an exponent
    }
  }
  return from === 0 ? text : out + text.slice(from);
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
