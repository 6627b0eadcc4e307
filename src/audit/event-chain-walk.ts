import type { StoredChainEvent } from '../history/reader/round-events.reader';
import { eventHash, GENESIS_HASH } from '../tables/event-chain';

export type { StoredChainEvent };

export type BrokenLinkReason =
  /** The event numbers skip (a row deleted) or repeat/go backwards (rows reordered). */
  | 'event-number-gap'
  /** The row's prev_hash is not the hash of the event before it (deleted or reordered rows). */
  | 'prev-hash-mismatch'
  /** The row's content no longer hashes to its stored hash (edited). */
  | 'hash-mismatch';

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
      const recomputed = eventHash(e.prevHash, {
        tableId: e.tableId,
        eventNo: e.eventNo,
        roundId: e.roundId,
        type: e.type,
        visibility: e.visibility,
        payload: e.payload,
        actor: e.actor,
        occurredAt: e.occurredAt,
      });
      if (recomputed !== e.hash) {
        return { ...at, reason: 'hash-mismatch', expected: recomputed, found: e.hash };
      }
      this.expectedNo += 1;
      this.prevHash = e.hash;
      this.checked += 1;
    }
    return undefined;
  }
}
