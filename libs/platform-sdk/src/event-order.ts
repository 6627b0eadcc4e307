import type { TableEvent } from './generated/messages';

/** Something wrong with the order of a table's events, as the consumer saw it. */
export interface OrderProblem {
  tableId: string;
  kind: 'gap' | 'chain-mismatch' | 'chain-backwards';
  message: string;
  event: TableEvent;
}

interface ChainHead {
  eventNo: number;
  hash: string;
}

export interface EventOrderOptions {
  /**
   * Report a `seq` that skips numbers (default true). Off when a table's events come on two
   * topics (contract v2: the shared one and the platform's own), where each topic's numbers skip
   * the other's and other platforms' private events by design.
   */
  gaps?: boolean;
}

/**
 * Per table and stream (a topic): `seq` must go 1, 2, 3 ... (a lower or equal one is a
 * redelivery, skipped), and when the envelope carries the hash-chain head (`chain: { eventNo,
 * hash }`) it never goes backwards and one event number always has one hash (whatever the
 * stream). Envelopes without it are accepted as they are. Two streams are not ordered with each
 * other: the shared and the private topic of contract v2 are read side by side.
 */
export class EventOrder {
  private readonly last = new Map<string, { seq: number; chain?: ChainHead }>();
  private readonly hashes = new Map<string, string>();

  constructor(private readonly options: EventOrderOptions = {}) {}

  /** `deliver`: whether the event is new; `problems`: what is wrong with it. */
  accept(event: TableEvent, stream = ''): { deliver: boolean; problems: OrderProblem[] } {
    const at = `${stream}\u0000${event.tableId}`;
    const before = this.last.get(at);
    if (before && event.seq <= before.seq) return { deliver: false, problems: [] };
    const problems: OrderProblem[] = [];
    const problem = (kind: OrderProblem['kind'], message: string) =>
      problems.push({ tableId: event.tableId, kind, message, event });
    if (this.options.gaps !== false && before && event.seq !== before.seq + 1) {
      problem('gap', `seq ${event.seq} after ${before.seq}: events ${before.seq + 1}.. missing`);
    }
    const chain = (event as { chain?: ChainHead }).chain;
    if (chain) {
      const key = `${event.tableId}#${chain.eventNo}`;
      const known = this.hashes.get(key);
      if (known !== undefined && known !== chain.hash) {
        problem('chain-mismatch', `chain event ${chain.eventNo} has two hashes`);
      }
      if (before?.chain && chain.eventNo < before.chain.eventNo) {
        problem('chain-backwards', `chain head ${chain.eventNo} after ${before.chain.eventNo}`);
      }
      this.hashes.set(key, chain.hash);
    }
    this.last.set(at, { seq: event.seq, chain: chain ?? before?.chain });
    return { deliver: true, problems };
  }
}
