import { visibilityOf } from '@studio/contracts';
import type { OutgoingMessage } from './event-publisher';
import { OutboxRow, toOutgoingMessage } from './outbox-envelope';
import { BOTS } from '../common/player-key';

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

/**
 * Whether an event or item of `platformId` is v1's own (not only its shared version): the
 * `default` platform's, and the practice bots' (`bot:<seat>` keys, no platform's players: on no
 * platform's topic, on v1 as under 1.x; the shared topic names no player, a bot included).
 */
function ownOnV1(routing: EventRouting, platformId: string): boolean {
  return platformId === routing.defaultPlatformId || platformId === BOTS;
}

type Push = (topic: string, message: OutgoingMessage) => void;

/**
 * One event to its topics. v1 gets exactly one message per event it may carry, so that its `seq`
 * has no gap where the event was the shared topic's alone: the `default` platform's own version
 * when there is one, else the shared version (a redacted or split event without other platforms'
 * players); only another platform's player's private event is not on v1.
 */
function routeTableEvent(row: OutboxRow, routing: EventRouting, push: Push): void {
  const visibility = visibilityOf(row.type);
  const toV1 = (message: OutgoingMessage) => {
    if (routing.v1Topic) push(routing.v1Topic, message);
  };
  const everyone = () => {
    const message = toOutgoingMessage(row);
    push(routing.sharedTopic, message);
    toV1(message);
  };
  if (visibility.kind === 'public') return everyone();
  const payload = JSON.parse(row.payload) as Payload;
  const platformOf = (item: Payload) =>
    platformIdOf(item) ?? platformIdOf(payload) ?? routing.defaultPlatformId;
  if (visibility.kind === 'private' || visibility.kind === 'redacted') {
    const platformId = platformOf(payload);
    const whole = toOutgoingMessage(row);
    if (platformId !== BOTS) push(routing.privateTopic(platformId), whole);
    const mine = ownOnV1(routing, platformId);
    if (visibility.kind === 'private') return mine ? toV1(whole) : undefined;
    const redacted = withPayload(row, without(payload, visibility.drop));
    push(routing.sharedTopic, redacted);
    return toV1(mine ? whole : redacted);
  }
  const list = payload[visibility.list];
  // A game's event of this type that has no list names no player: public, as it always was.
  if (list === undefined) return everyone();
  routeSplit(row, payload, Array.isArray(list) ? (list as Payload[]) : [], visibility, {
    routing,
    push,
    toV1,
    platformOf,
  });
}

interface SplitRouting {
  routing: EventRouting;
  push: Push;
  toV1(message: OutgoingMessage): void;
  platformOf(item: Payload): string;
}

/** Each platform its players' items; the shared topic the aggregate; v1 the `default`'s. */
function routeSplit(
  row: OutboxRow,
  payload: Payload,
  items: readonly Payload[],
  visibility: { list: string; count?: string; perPlatform?: readonly string[] },
  { routing, push, toV1, platformOf }: SplitRouting,
): void {
  const part = (mine: readonly Payload[]) => {
    const copy: Payload = { ...payload, [visibility.list]: mine };
    if (visibility.count) copy[visibility.count] = mine.length;
    return withPayload(row, copy);
  };
  const byPlatform = new Map<string, Payload[]>();
  const forV1: Payload[] = [];
  for (const item of items) {
    const platformId = platformOf(item);
    if (ownOnV1(routing, platformId)) forV1.push(item);
    if (platformId === BOTS) continue;
    let mine = byPlatform.get(platformId);
    if (!mine) byPlatform.set(platformId, (mine = []));
    mine.push(item);
  }
  for (const [platformId, mine] of byPlatform) {
    // One platform's items only: the event as written, byte for byte.
    const whole = mine.length === items.length;
    push(routing.privateTopic(platformId), whole ? toOutgoingMessage(row) : part(mine));
  }
  const hidden = [visibility.list, 'platformId', ...(visibility.perPlatform ?? [])];
  const shared = withPayload(row, without(payload, hidden));
  push(routing.sharedTopic, shared);
  if (forV1.length === 0) return toV1(shared);
  toV1(forV1.length === items.length ? toOutgoingMessage(row) : part(forV1));
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
