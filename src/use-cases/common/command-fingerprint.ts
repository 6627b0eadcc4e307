import { canonicalJson } from '../../common/canonical-json';

/**
 * What a platform command asks, as a short comparable value: two commands with the same id are
 * the same command only if their fingerprints are equal (see tables/command-replay.ts). Built from
 * the fields that define the command, in a fixed order, absent fields as null, so that the same
 * command sent over HTTP or Kafka, with its keys in any order, has the same fingerprint.
 *
 * It is stored beside every command's answer, a window's worth at a time, so it is 16 hex digits
 * (two 32-bit FNV-1a hashes of the canonical JSON), not the JSON itself: telling a reused id from a
 * repeat needs no cryptographic strength, and a 1 in 2^64 chance of missing one is none in practice.
 */
export function commandFingerprint(kind: string, fields: readonly unknown[]): string {
  return fnv1a64(fingerprintText(kind, fields));
}

/**
 * The canonical JSON of `[kind, ...fields]`. Most commands carry only strings, numbers and absent
 * fields, whose canonical JSON is plain JSON: one native JSON.stringify then (a window of 100,000
 * commands is fingerprinted on the intake's thread), the same text as canonicalJson gives.
 */
export function fingerprintText(kind: string, fields: readonly unknown[]): string {
  const values = [kind, ...fields.map((f) => (f === undefined ? null : f))];
  return values.some((v) => v !== null && typeof v === 'object')
    ? canonicalJson(values)
    : JSON.stringify(values);
}

/** Two 32-bit FNV-1a hashes of the text (different offset bases) in one pass, as 16 hex digits. */
function fnv1a64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return hex(a >>> 0) + hex(b >>> 0);
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}
