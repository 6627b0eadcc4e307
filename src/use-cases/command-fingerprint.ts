import { canonicalJson } from '../common/canonical-json';

/**
 * What a platform command asks, as one comparable string: two commands with the same id are the
 * same command only if their fingerprints are equal (see tables/command-replay.ts). Built from the
 * fields that define the command, in a fixed order, absent fields as null, so that the same
 * command sent over HTTP or Kafka, with its keys in any order, has the same fingerprint.
 */
export function commandFingerprint(kind: string, fields: readonly unknown[]): string {
  return canonicalJson([kind, ...fields.map((f) => (f === undefined ? null : f))]);
}
