import { visibilityOf } from '@studio/contracts';
import type { OutgoingMessage } from './event-publisher';
import { OutboxRow, toOutgoingMessage } from './outbox-envelope';

/** Where the table events of the outbox go (contract 2.0), prefixes applied. */
export interface EventRouting {
  /** The outbox topic of table events (rows are written under the v1 name). */
  tableEventsTopic: string;
  /** What every platform may see. */
  sharedTopic: string;
  /** A platform's private events topic. */
  privateTopic(platformId: string): string;
  /**
   * The v1 events topic, while it is served (deprecation period): the public events and the
   * `default` platform's own, byte for byte as before; another platform's players never.
   */
  v1Topic?: string;
  /** The platform of an event or item that names none. */
  defaultPlatformId: string;
}

type Payload = Record<string, unknown>;

/**
 * The messages of a batch of outbox rows per topic, each topic's in the rows' order. Public events
 * are not parsed (the common case costs what it did); an event naming players is parsed once and
 * each platform gets only its own players' part (visibility table: outbox-relay-visibility.ts).
 */
export function routeRows(
  rows: readonly OutboxRow[],
  routing?: EventRouting,
): Map<string, OutgoingMessage[]> {
  const byTopic = new Map<string, OutgoingMessage[]>();
  const push = (topic: string, message: OutgoingMessage) => {
    let list = byTopic.get(topic);
    if (!list) byTopic.set(topic, (list = []));
    list.push(message);
  };
  for (const row of rows) {
    if (!routing || row.topic !== routing.tableEventsTopic) push(row.topic, toOutgoingMessage(row));
    else routeTableEvent(row, routing, push);
  }
  return byTopic;
}

function routeTableEvent(
  row: OutboxRow,
  routing: EventRouting,
  push: (topic: string, message: OutgoingMessage) => void,
): void {
  const visibility = visibilityOf(row.type);
  const shared = () => {
    const message = toOutgoingMessage(row);
    push(routing.sharedTopic, message);
    if (routing.v1Topic) push(routing.v1Topic, message);
  };
  if (visibility.kind === 'public') return shared();
  const payload = JSON.parse(row.payload) as Payload;
  const own = (platformId: string, message: OutgoingMessage) => {
    push(routing.privateTopic(platformId), message);
    if (routing.v1Topic && platformId === routing.defaultPlatformId) push(routing.v1Topic, message);
  };
  const platformOf = (item: Payload) =>
    platformIdOf(item) ?? platformIdOf(payload) ?? routing.defaultPlatformId;
  if (visibility.kind === 'private') {
    own(platformOf(payload), toOutgoingMessage(row));
    return;
  }
  if (visibility.kind === 'redacted') {
    own(platformOf(payload), toOutgoingMessage(row));
    push(routing.sharedTopic, withPayload(row, without(payload, visibility.drop)));
    return;
  }
  const list = payload[visibility.list];
  // A game's event of this type that has no list names no player: public, as it always was.
  if (list === undefined) return shared();
  const items = Array.isArray(list) ? (list as Payload[]) : [];
  const byPlatform = new Map<string, Payload[]>();
  for (const item of items) {
    const platformId = platformOf(item);
    let list = byPlatform.get(platformId);
    if (!list) byPlatform.set(platformId, (list = []));
    list.push(item);
  }
  for (const [platformId, mine] of byPlatform) {
    // One platform's items only: the event as written, byte for byte.
    if (byPlatform.size === 1) {
      own(platformId, toOutgoingMessage(row));
      continue;
    }
    const part: Payload = { ...payload, [visibility.list]: mine };
    if (visibility.count) part[visibility.count] = mine.length;
    own(platformId, withPayload(row, part));
  }
  push(routing.sharedTopic, withPayload(row, without(payload, [visibility.list, 'platformId'])));
}

function platformIdOf(value: Payload): string | undefined {
  const id = value.platformId;
  return typeof id === 'string' ? id : undefined;
}

function without(payload: Payload, fields: readonly string[]): Payload {
  const copy = { ...payload };
  for (const field of fields) delete copy[field];
  return copy;
}

function withPayload(row: OutboxRow, payload: Payload): OutgoingMessage {
  return toOutgoingMessage({ ...row, payload: JSON.stringify(payload) });
}
