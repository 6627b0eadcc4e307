import { canonicalJson } from '../common/canonical-json';

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
  const text = canonicalJson([kind, ...fields.map((f) => (f === undefined ? null : f))]);
  return hex(fnv1a(text, 0x811c9dc5)) + hex(fnv1a(text, 0x050c5d1f));
}

function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}
