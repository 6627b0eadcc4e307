// The order an auditor reads a round's timeline in. Pure (unit-tested).

/**
 * Within one timestamp, causes before effects: a reading before its card, a supervisor's action
 * before the events it produced, every event before the settlements it led to.
 */
const KIND_ORDER = {
  reading: 0,
  card: 1,
  'supervisor-action': 2,
  bet: 3,
  decision: 4,
  event: 5,
  settlement: 6,
};

/**
 * The timeline in the order things happened: by time, then by the event sequence (settlements
 * after the events that led to them); an event recorded twice at the same time (the public and
 * the restricted copy) is one line naming both numbers.
 */
export function inOrder(timeline) {
  const sorted = timeline
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        String(a.e.at).localeCompare(String(b.e.at)) ||
        (KIND_ORDER[a.e.kind] ?? 5) - (KIND_ORDER[b.e.kind] ?? 5) ||
        (a.e.eventNo ?? 0) - (b.e.eventNo ?? 0) ||
        a.i - b.i,
    )
    .map(({ e }) => e);
  const out = [];
  for (const e of sorted) {
    const twin =
      e.kind === 'event' &&
      out.find((o) => o.kind === 'event' && o.type === e.type && o.at === e.at);
    if (twin) twin.sameAs = [...(twin.sameAs ?? []), e.eventNo];
    else out.push({ ...e });
  }
  return out;
}

/** The money of each kind of entry that holds some: summed per currency, never across. */
const MONEY = { bet: ['amount', 'deducted'], settlement: ['stake', 'returned', 'net'] };

/** More entries of one kind than this are one line with a summary (the entries behind it). */
export const GROUP_OVER = 8;

/**
 * The timeline as an auditor reads it on a screen or two: bets, decisions and settlements, when a
 * round has more than GROUP_OVER of them (an Infinite Blackjack round holds one per player), are
 * each one summarised line at the place of their first entry: bets by bet type, decisions per
 * decision window (or per hand) by action, settlements by bet type and outcome (a player group's
 * result); so is an event type recorded more than GROUP_OVER times (one BetPlaced per bet).
 * Bet and settlement groups and parts carry their money as `totals`, one per currency.
 * Every other entry stays a line of its own. Pure: the page draws the items.
 * @param {Array<Record<string, any>>} timeline in order (see inOrder)
 * @returns {Array<{entry: Record<string, any>} | {group: string, key: string, entries: Array<Record<string, any>>, parts: Array<Record<string, any>>, totals?: Array<Record<string, any>>}>}
 */
export function groupTimeline(timeline, over = GROUP_OVER) {
  const counts = {};
  const count = (key) => (counts[key] = (counts[key] ?? 0) + 1);
  for (const e of timeline) count(e.kind === 'event' ? `event:${e.type}` : e.kind);
  const grouped = (e) =>
    e.kind === 'event'
      ? counts[`event:${e.type}`] > over
      : ['bet', 'decision', 'settlement'].includes(e.kind) && counts[e.kind] > over;
  const keyOf = (e) =>
    e.kind === 'decision'
      ? `${e.window ?? ''}|${e.window == null ? (e.hand ?? '') : ''}`
      : e.kind === 'event'
        ? e.type
        : '';
  const groups = new Map();
  const items = [];
  for (const e of timeline) {
    if (!grouped(e)) {
      items.push({ entry: e });
      continue;
    }
    const id = `${e.kind}:${keyOf(e)}`;
    let group = groups.get(id);
    if (!group) {
      group = { group: e.kind, key: keyOf(e), entries: [] };
      groups.set(id, group);
      items.push(group);
    }
    group.entries.push(e);
  }
  for (const group of groups.values()) {
    group.parts = partsOf(group.group, group.entries);
    if (MONEY[group.group]) group.totals = sumsByCurrency(group.entries, MONEY[group.group]);
  }
  return items;
}

/**
 * The sums of money fields per currency, in the order the currencies first appear: amounts of two
 * currencies are never added together.
 * @param {Array<Record<string, any>>} entries each with its `currency`
 * @param {string[]} fields
 * @returns {Array<Record<string, any> & {currency: string}>}
 */
export function sumsByCurrency(entries, fields) {
  const sums = new Map();
  for (const e of entries) {
    const sum = sums.get(e.currency) ?? {
      currency: e.currency,
      ...Object.fromEntries(fields.map((f) => [f, 0])),
    };
    for (const f of fields) sum[f] += e[f];
    sums.set(e.currency, sum);
  }
  return [...sums.values()];
}

/**
 * The lines of a group's summary: one per bet type, action, or bet type and outcome, with their
 * money per currency; for an event recorded per player (BetPlaced, DecisionAccepted) the range of
 * its numbers.
 */
function partsOf(kind, entries) {
  if (kind === 'event') {
    const numbers = entries.flatMap((e) => [e.eventNo, ...(e.sameAs ?? [])]);
    return [
      {
        key: 'numbers',
        count: entries.length,
        first: Math.min(...numbers),
        last: Math.max(...numbers),
      },
    ];
  }
  const parts = new Map();
  for (const e of entries) {
    const key =
      kind === 'bet' ? e.betType : kind === 'decision' ? e.action : `${e.betType}|${e.outcome}`;
    const part = parts.get(key) ?? {
      key,
      count: 0,
      ...(kind === 'bet' ? { betType: e.betType } : {}),
      ...(kind === 'decision' ? { action: e.action, automatic: 0 } : {}),
      ...(kind === 'settlement' ? { betType: e.betType, outcome: e.outcome } : {}),
      entries: [],
    };
    part.count += 1;
    if (kind === 'decision' && e.automatic) part.automatic += 1;
    part.entries.push(e);
    parts.set(key, part);
  }
  return [...parts.values()]
    .map(({ entries: own, ...part }) =>
      MONEY[kind] ? { ...part, totals: sumsByCurrency(own, MONEY[kind]) } : part,
    )
    .sort((a, b) => b.count - a.count || String(a.key).localeCompare(b.key));
}

/** Events that only record a card being read and dealt: they go on the card's line. */
const CARD_EVENTS = new Set([
  'CardDealt',
  'CardDealtFaceDown',
  'ReadingProcessed',
  'CommonCardDrawn',
  'DealerCardDrawn',
  'HiddenCardRecorded',
]);

/**
 * Each dealt card as one line: the reading it was read from (its bytes) and the events that
 * record nothing but that card join it (a rescan, any other event, stays a line of its own).
 * @param {ReturnType<typeof groupTimeline>} items
 */
export function withCardLines(items) {
  const out = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    const next = items[i + 1]?.entry;
    if (
      item.entry?.kind === 'reading' &&
      next?.kind === 'card' &&
      next.readingId !== null &&
      next.readingId === item.entry.readingId
    ) {
      continue; // the card's line carries its reading
    }
    if (item.entry?.kind !== 'card') {
      out.push(item);
      continue;
    }
    const card = item.entry;
    const previous = items[i - 1]?.entry;
    const reading =
      previous?.kind === 'reading' &&
      card.readingId !== null &&
      previous.readingId === card.readingId
        ? previous
        : null;
    // The events of the same instant that only record this card, even past another event.
    const events = [];
    const others = [];
    while (items[i + 1]?.entry?.kind === 'event' && items[i + 1].entry.at === card.at) {
      const event = items[i + 1].entry;
      if (CARD_EVENTS.has(event.type) && !events.some((e) => e.type === event.type))
        events.push(event);
      else others.push(items[i + 1]);
      i += 1;
    }
    out.push({ entry: card, reading, events }, ...others);
  }
  return out;
}
