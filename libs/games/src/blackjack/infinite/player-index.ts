/**
 * Player id -> column index, derived from the `ids` column and cached outside the state (the
 * state stays plain JSON; a state read back from JSON rebuilds its index once, lazily).
 *
 * An open-addressing table of column indices in an Int32Array (a JS Map of a million strings is
 * several times slower to build and to probe). Appending players extends the previous state's
 * table instead of copying it: a table is only extended by the newest state of its chain, and
 * every hit is checked against the caller's own ids column, so an older state sharing the table
 * skips the entries it does not have and still answers correctly.
 */
interface IdIndex {
  slots: Int32Array;
  /** Entries inserted; equals the length of the newest ids column using this index. */
  size: number;
}

const cache = new WeakMap<readonly string[], IdIndex>();

/** FNV-1a over UTF-16 code units. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < id.length; k += 1) {
    h ^= id.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function insert(index: IdIndex, ids: readonly string[], i: number): void {
  if ((index.size + 1) * 2 > index.slots.length) grow(index, ids);
  const mask = index.slots.length - 1;
  let h = hashOf(ids[i]) & mask;
  while (index.slots[h] !== -1) h = (h + 1) & mask;
  index.slots[h] = i;
  index.size += 1;
}

/** Doubles the table in place (older states sharing it still find their own entries). */
function grow(index: IdIndex, ids: readonly string[]): void {
  const old = index.slots;
  const slots = new Int32Array(old.length * 2).fill(-1);
  const mask = slots.length - 1;
  for (const i of old) {
    if (i < 0) continue;
    let h = hashOf(ids[i]) & mask;
    while (slots[h] !== -1) h = (h + 1) & mask;
    slots[h] = i;
  }
  index.slots = slots;
}

function buildIndex(ids: readonly string[], extra = 0): IdIndex {
  let capacity = 16;
  while (capacity < (ids.length + extra) * 2) capacity *= 2;
  const index: IdIndex = { slots: new Int32Array(capacity).fill(-1), size: 0 };
  for (let i = 0; i < ids.length; i += 1) insert(index, ids, i);
  return index;
}

function probe(index: IdIndex, ids: readonly string[], id: string): number {
  const { slots } = index;
  const mask = slots.length - 1;
  for (let h = hashOf(id) & mask; ; h = (h + 1) & mask) {
    const i = slots[h];
    if (i === -1) return -1;
    if (i < ids.length && ids[i] === id) return i;
  }
}

function indexFor(ids: readonly string[]): IdIndex {
  let index = cache.get(ids);
  if (!index) {
    index = buildIndex(ids);
    cache.set(ids, index);
  }
  return index;
}

export function indexOfPlayer(ids: readonly string[], playerId: string): number {
  return probe(indexFor(ids), ids, playerId);
}

export interface PlayerAppender {
  /** Index of the player in the column being built (old or newly added), or -1. */
  indexOf(playerId: string): number;
  /** Appends a player who is not in the column yet; returns the new index. */
  add(playerId: string): number;
  /** The new ids column (indexed for later look-ups). */
  finish(): readonly string[];
}

/** Builds the next ids column from `ids` plus new players, reusing the index when it can. */
export function appendPlayers(ids: readonly string[], expected = 0): PlayerAppender {
  const cached = cache.get(ids);
  const index = cached && cached.size === ids.length ? cached : buildIndex(ids, expected);
  const next = ids.slice();
  return {
    indexOf: (playerId) => probe(index, next, playerId),
    add: (playerId) => {
      next.push(playerId);
      insert(index, next, next.length - 1);
      return next.length - 1;
    },
    finish: () => {
      cache.set(next, index);
      return next;
    },
  };
}
