import canonicalize from 'canonicalize';
import { createHash, randomFillSync } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';

/** The hash before a table's first event (docs/chain.md). */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The chain algorithm of new events (docs/chain.md): 1 = the home-made canonical form of eight
 * fields (events written before migration 1765210000000); 2 = RFC 8785 (JCS) of ten fields, a
 * per-event salt and the version itself among them.
 */
export type ChainVersion = 1 | 2;
export const CHAIN_VERSION: ChainVersion = 2;
export const CHAIN_VERSIONS: readonly number[] = [1, 2];

export interface ChainedEventFields {
  tableId: string;
  eventNo: number;
  roundId: string | null;
  type: string;
  visibility: string;
  payload: unknown;
  actor: string | null;
  occurredAt: string;
  chainVersion: ChainVersion;
  /**
   * Version 2: 32 random hex digits, so a published hash cannot be matched against the 52 cards a
   * face-down card event may hold (its salt is shown only with the event, after the round). Null
   * in version 1.
   */
  salt: string | null;
}

/** An event with its link in the table's chain: the hash before it and its own. */
export interface ChainedEvent extends ChainedEventFields {
  prevHash: string;
  hash: string;
}

const SALT_BYTES = 16;
/**
 * Random bytes drawn 256 salts at a time: one `randomBytes(16)` call costs tens of µs here (more
 * than the event's hash), a slice of a pool ~2 µs; each byte is still used for one salt only.
 */
const saltPool = Buffer.alloc(SALT_BYTES * 256);
let saltAt = saltPool.length;

/** A fresh salt for a version-2 event: 32 hex digits, never handed out twice. */
export function newSalt(): string {
  if (saltAt === saltPool.length) {
    randomFillSync(saltPool);
    saltAt = 0;
  }
  const salt = saltPool.toString('hex', saltAt, saltAt + SALT_BYTES);
  saltAt += SALT_BYTES;
  return salt;
}

/** The exact text hashed after `prevHash + "\n"`: the event's canonical JSON in its version. */
export function hashedText(event: ChainedEventFields): string {
  const v1 = {
    tableId: event.tableId,
    eventNo: event.eventNo,
    roundId: event.roundId,
    type: event.type,
    visibility: event.visibility,
    payload: event.payload,
    actor: event.actor,
    occurredAt: event.occurredAt,
  };
  if (event.chainVersion === 1) return canonicalJson(v1);
  if (event.chainVersion !== 2)
    throw new Error(`Unknown chain version ${String(event.chainVersion)}`);
  return canonicalize({ ...v1, chainVersion: 2, salt: event.salt })!;
}

/**
 * Tamper evidence: every round event's hash covers its content and the previous event's hash of
 * the same table, so editing, deleting or reordering a stored event breaks the chain from there on.
 * `sha256_hex(utf8(prevHash + "\n" + hashedText(event)))`.
 */
export function eventHash(prevHash: string, event: ChainedEventFields): string {
  return createHash('sha256')
    .update(`${prevHash}\n${hashedText(event)}`, 'utf8')
    .digest('hex');
}
