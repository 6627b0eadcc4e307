/**
 * The envelope every event carries on Kafka (the message value, as JSON).
 *
 * - `eventId` is unique and stable across redelivery: consumers de-duplicate by it.
 * - `seq` increases by exactly one per table with no gaps: consumers detect gaps by it.
 * - `occurredAt` is an ISO-8601 UTC timestamp taken from the service's injected clock.
 */
export interface EventEnvelope<TType extends string = string, TPayload = unknown> {
  eventId: string;
  type: TType;
  schemaVersion: number;
  tableId: string;
  roundId?: string;
  seq: number;
  occurredAt: string;
  payload: TPayload;
  /** The table's hash-chain head at this event (round events only; docs/chain.md). */
  chain?: { eventNo: number; hash: string };
}

/** Kafka headers that repeat envelope fields so consumers can route without parsing JSON. */
export const EVENT_HEADERS = {
  eventId: 'event-id',
  type: 'event-type',
  schemaVersion: 'schema-version',
} as const;
