/**
 * What changed between two JSON table states, as a patch that turns the first into the second.
 * A transition of a 100,000-player table changes a few thousand entries of a ~3 MB state (a
 * window's decisions, a batch of bets appended); storing only that keeps the cost of a
 * transition proportional to its commands, not to the table's size. States are immutable and
 * share what did not change, so most of the walk is cut short by reference equality.
 *
 * Patch forms (short keys: a patch of 5,000 decisions is stored as it is written):
 * - `{ r: value }` replace the value;
 * - `{ o: { key: patch }, d: [keys] }` an object: changed keys, deleted keys;
 * - `{ p: [i, v, ...], s: [[i, patch], ...], a: [values], t: length }` an array: entries replaced
 *   by primitives, entries patched in place, values appended, or the length it was cut to.
 */
export type StatePatch =
  | { r: unknown }
  | { o: Record<string, StatePatch>; d?: string[] }
  | { p?: unknown[]; s?: Array<[number, StatePatch]>; a?: unknown[]; t?: number };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The patch from `before` to `after`, or undefined when they are equal as JSON. */
export function diffState(before: unknown, after: unknown): StatePatch | undefined {
  if (before === after) return undefined;
  if (Array.isArray(before) && Array.isArray(after)) return diffArray(before, after);
  if (isObject(before) && isObject(after)) return diffObject(before, after);
  return { r: after === undefined ? null : after };
}

/** An own property only: a state key named like an Object.prototype member is data. */
function own(object: Json, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

function diffObject(before: Json, after: Json): StatePatch | undefined {
  // Assigning "__proto__" would set a prototype, not a key: such an object is replaced whole.
  if (Object.prototype.hasOwnProperty.call(after, '__proto__')) return { r: after };
  const changed: Record<string, StatePatch> = {};
  const deleted: string[] = [];
  let any = false;
  for (const key of Object.keys(after)) {
    const value = after[key];
    if (value === undefined) continue;
    const was = own(before, key);
    const patch = was === undefined ? { r: value } : diffState(was, value);
    if (patch) {
      changed[key] = patch;
      any = true;
    }
  }
  for (const key of Object.keys(before)) {
    if (before[key] !== undefined && own(after, key) === undefined) deleted.push(key);
  }
  if (!any && deleted.length === 0) return undefined;
  return deleted.length > 0 ? { o: changed, d: deleted } : { o: changed };
}

function diffArray(before: readonly unknown[], after: readonly unknown[]): StatePatch | undefined {
  const common = Math.min(before.length, after.length);
  const replaced: unknown[] = [];
  const patched: Array<[number, StatePatch]> = [];
  for (let i = 0; i < common; i += 1) {
    const was = before[i];
    const is = after[i];
    if (was === is) continue;
    if (typeof was === 'object' && typeof is === 'object' && was !== null && is !== null) {
      const patch = diffState(was, is);
      if (patch) patched.push([i, patch]);
    } else replaced.push(i, is === undefined ? null : is);
    // Mostly rewritten: the whole array is shorter than a list of its changes.
    if (replaced.length / 2 + patched.length > common / 2 + 16) return { r: after };
  }
  const patch: { p?: unknown[]; s?: Array<[number, StatePatch]>; a?: unknown[]; t?: number } = {};
  if (replaced.length > 0) patch.p = replaced;
  if (patched.length > 0) patch.s = patched;
  if (after.length > before.length) patch.a = after.slice(common);
  if (after.length < before.length) patch.t = after.length;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** `base` with the patch applied (base itself is left as it was). */
export function applyStatePatch(base: unknown, patch: StatePatch): unknown {
  if ('r' in patch) return patch.r;
  if ('o' in patch) {
    const out: Json = { ...(base as Json) };
    for (const [key, sub] of Object.entries(patch.o))
      out[key] = applyStatePatch(own(out, key), sub);
    for (const key of patch.d ?? []) delete out[key];
    return out;
  }
  const out = (base as unknown[]).slice(0, patch.t ?? (base as unknown[]).length);
  const replaced = patch.p ?? [];
  for (let k = 0; k < replaced.length; k += 2) out[replaced[k] as number] = replaced[k + 1];
  for (const [i, sub] of patch.s ?? []) out[i] = applyStatePatch(out[i], sub);
  for (const value of patch.a ?? []) out.push(value);
  return out;
}
