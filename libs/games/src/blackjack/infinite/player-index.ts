/**
 * Player id -> column index, derived from the `ids` column and cached outside the state (the
 * state stays plain JSON; a state read back from JSON rebuilds its index once, lazily).
 *
 * Appending a player shares the previous state's map instead of copying a million entries: the
 * map is only ever extended along one chain of appends, and every hit is checked against the
 * ids column, so an older state sharing the map still answers correctly for itself.
 */
const cache = new WeakMap<readonly string[], Map<string, number>>();

export function indexOfPlayer(ids: readonly string[], playerId: string): number {
  const map = indexFor(ids);
  const i = map.get(playerId);
  return i !== undefined && i < ids.length && ids[i] === playerId ? i : -1;
}

function indexFor(ids: readonly string[]): Map<string, number> {
  let map = cache.get(ids);
  if (!map) {
    map = new Map();
    for (let i = 0; i < ids.length; i += 1) map.set(ids[i], i);
    cache.set(ids, map);
  }
  return map;
}

/**
 * Returns a new ids column with the players appended, carrying the index along when it can.
 * `addedIndex` (optional) already maps the added ids to their new positions.
 */
export function appendPlayers(
  ids: readonly string[],
  added: readonly string[],
  addedIndex?: Map<string, number>,
): string[] {
  const next = ids.concat(added);
  if (ids.length === 0 && addedIndex && addedIndex.size === added.length) {
    cache.set(next, addedIndex);
    return next;
  }
  const map = cache.get(ids);
  if (map && map.size === ids.length) {
    for (let k = 0; k < added.length; k += 1) map.set(added[k], ids.length + k);
    cache.set(next, map);
  }
  return next;
}
