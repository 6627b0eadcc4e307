import { createHash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';

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

/** An event with its link in the table's chain: the hash before it and its own. */
export interface ChainedEvent extends ChainedEventFields {
  prevHash: string;
  hash: string;
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
