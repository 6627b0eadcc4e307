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
