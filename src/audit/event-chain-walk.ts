import type { StoredChainEvent } from '../history/reader/round-events.reader';
import { CHAIN_VERSIONS, eventHash, GENESIS_HASH } from '../history/event-chain';

export type { StoredChainEvent };

export type BrokenLinkReason =
  /** The event numbers skip (a row deleted) or repeat/go backwards (rows reordered). */
  | 'event-number-gap'
  /** The row's prev_hash is not the hash of the event before it (deleted or reordered rows). */
  | 'prev-hash-mismatch'
  /** The row's content no longer hashes to its stored hash (edited). */
  | 'hash-mismatch'
  /**
   * The row names an unknown chain version, or an older one than the event before it (versions
   * only go up: a row set back to version 1 to be hashed the old way is a finding).
   */
  | 'chain-version';

export interface BrokenLink {
  tableId: string;
  eventNo: number;
  rowId: string;
  reason: BrokenLinkReason;
  expected: string;
  found: string;
}

/**
 * Walks the events of one table in event_no order from where the walk stopped before. Pure and
 * incremental so a table of millions of events is checked page by page in constant memory.
 */
export class ChainWalker {
  private expectedNo: number;
  private prevHash: string;
  private version = 1;
  checked = 0;

  constructor(
    readonly tableId: string,
    start: { eventNo: number; hash: string } = { eventNo: 0, hash: GENESIS_HASH },
  ) {
    this.expectedNo = start.eventNo + 1;
    this.prevHash = start.hash;
  }

  /** The first broken link among these events, or undefined when they all chain on. */
  walk(events: readonly StoredChainEvent[]): BrokenLink | undefined {
    for (const e of events) {
      const at = { tableId: this.tableId, eventNo: e.eventNo, rowId: e.id };
      if (e.eventNo !== this.expectedNo) {
        return {
          ...at,
          reason: 'event-number-gap',
          expected: String(this.expectedNo),
          found: String(e.eventNo),
        };
      }
      if (e.prevHash !== this.prevHash) {
        return { ...at, reason: 'prev-hash-mismatch', expected: this.prevHash, found: e.prevHash };
      }
      if (!CHAIN_VERSIONS.includes(e.chainVersion) || e.chainVersion < this.version) {
        const expected = `${this.version} or later`;
        return { ...at, reason: 'chain-version', expected, found: String(e.chainVersion) };
      }
      const recomputed = eventHash(e.prevHash, {
        tableId: e.tableId,
        eventNo: e.eventNo,
        roundId: e.roundId,
        type: e.type,
        visibility: e.visibility,
        payload: e.payload,
        actor: e.actor,
        occurredAt: e.occurredAt,
        chainVersion: e.chainVersion,
        salt: e.salt,
      });
      if (recomputed !== e.hash) {
        return { ...at, reason: 'hash-mismatch', expected: recomputed, found: e.hash };
      }
      this.expectedNo += 1;
      this.prevHash = e.hash;
      this.version = e.chainVersion;
      this.checked += 1;
    }
    return undefined;
  }
}

/** A chain head published on the events topic (a ChainCheckpoint event's payload). */
export interface ChainCheckpoint {
  tableId: string;
  eventNo: number;
  hash: string;
  checkpointAt: string;
}

/** The latest checkpoint of each table: the one furthest along its chain. */
export function latestCheckpoints(all: readonly ChainCheckpoint[]): Map<string, ChainCheckpoint> {
  const latest = new Map<string, ChainCheckpoint>();
  for (const c of all) {
    const seen = latest.get(c.tableId);
    if (!seen || c.eventNo > seen.eventNo) latest.set(c.tableId, c);
  }
  return latest;
}

/** What the database holds of one table's chain, as the walk and a look-up found it. */
export interface StoredChain {
  tableId: string;
  /** The walk verified every event from 1 to `verified` (event numbers start at 1, no gaps). */
  verified: number;
  intact: boolean;
  firstBrokenLink?: BrokenLink;
  /** The stored event at the checkpoint's event_no, if there is one. */
  atCheckpoint?: { eventNo: number; hash: string };
}

export type AnchorVerdict =
  /** The checkpointed event is stored with its hash and the chain verifies up to it. */
  | { tableId: string; status: 'anchored'; checkpoint: ChainCheckpoint }
  /** No checkpoint of this table was published (yet): nothing anchors its chain. */
  | { tableId: string; status: 'no-checkpoint'; verified: number }
  /** The newest events are gone: the chain ends before the checkpointed event. */
  | {
      tableId: string;
      status: 'truncated';
      checkpoint: ChainCheckpoint;
      chainEnd: number;
      missing: number;
    }
  /** The checkpointed event is stored with another hash: it was rewritten. */
  | { tableId: string; status: 'hash-differs'; checkpoint: ChainCheckpoint; storedHash: string }
  /** The chain breaks at or before the checkpointed event. */
  | { tableId: string; status: 'broken'; checkpoint: ChainCheckpoint; firstBrokenLink: BrokenLink };

/** Whether a verdict is a finding: everything but an anchored or not-yet-anchored chain. */
export function anchorFailed(v: AnchorVerdict): boolean {
  return v.status !== 'anchored' && v.status !== 'no-checkpoint';
}

/**
 * Compares a table's stored chain with the latest checkpoint published for it. Pure: the caller
 * walks the chain and reads the checkpoints from Kafka.
 */
export function checkAgainstCheckpoint(
  stored: StoredChain,
  checkpoint: ChainCheckpoint | undefined,
): AnchorVerdict {
  const { tableId } = stored;
  if (!checkpoint) return { tableId, status: 'no-checkpoint', verified: stored.verified };
  const at = stored.atCheckpoint?.eventNo === checkpoint.eventNo ? stored.atCheckpoint : undefined;
  const brokenUpToCheckpoint =
    !stored.intact &&
    stored.firstBrokenLink !== undefined &&
    stored.firstBrokenLink.eventNo <= checkpoint.eventNo;
  if (!at && stored.intact) {
    const chainEnd = stored.verified;
    return {
      tableId,
      status: 'truncated',
      checkpoint,
      chainEnd,
      missing: checkpoint.eventNo - chainEnd,
    };
  }
  if (at && at.hash !== checkpoint.hash) {
    return { tableId, status: 'hash-differs', checkpoint, storedHash: at.hash };
  }
  if (brokenUpToCheckpoint || !at) {
    return { tableId, status: 'broken', checkpoint, firstBrokenLink: stored.firstBrokenLink! };
  }
  return { tableId, status: 'anchored', checkpoint };
}
