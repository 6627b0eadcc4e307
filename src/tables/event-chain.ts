import { createHash } from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);

export interface ChainedEventFields {
  tableId: string;
  eventNo: number;
  roundId: string | null;
  type: string;
  visibility: string;
  payload: unknown;
  actor: string | null;
  occurredAt: string;
}

/**
 * Tamper evidence: every round event's hash covers its content and the previous event's hash of
 * the same table, so editing, deleting or reordering a stored event breaks the chain from there on.
 */
export function eventHash(prevHash: string, event: ChainedEventFields): string {
  return createHash('sha256')
    .update(prevHash)
    .update('\n')
    .update(canonicalJson(event))
    .digest('hex');
}

/** JSON with object keys sorted, so the hash does not depend on key order (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
