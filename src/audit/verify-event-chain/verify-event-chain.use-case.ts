import { historyReader, HistorySource } from '../../history/reader/history-reader';
import { textParam } from '../audit-params';
import { AuditRequestError } from '../audit-query';
import {
  AnchorVerdict,
  BrokenLink,
  ChainCheckpoint,
  ChainWalker,
  checkAgainstCheckpoint,
  latestCheckpoints,
} from '../event-chain-walk';

/** A table's chain walk and its comparison with the latest published checkpoint. */
export interface AnchoredChainVerdict {
  chain: TableChainVerdict;
  anchor: AnchorVerdict;
}

export interface TableChainVerdict {
  tableId: string;
  events: number;
  intact: boolean;
  firstBrokenLink?: BrokenLink;
}

const PAGE = 5_000;

/**
 * Tamper evidence: walks each table's round events in event_no order, recomputing every hash
 * from the row's content and the previous row's hash, and names the first broken link. The row
 * order is by event_no, not by id, so rows renumbered to reorder them break the prev_hash links.
 */
export class VerifyEventChain {
  constructor(private readonly source: HistorySource) {}

  async all(): Promise<TableChainVerdict[]> {
    const out: TableChainVerdict[] = [];
    for (const id of await historyReader(this.source).events.tableIds()) {
      out.push(await this.table(id));
    }
    return out;
  }

  /**
   * Each table's chain against the latest checkpoint published for it (read from Kafka by the
   * caller): the tables of the database and those only the checkpoints know (a table whose events
   * were all deleted).
   */
  async againstCheckpoints(
    checkpoints: readonly ChainCheckpoint[],
  ): Promise<AnchoredChainVerdict[]> {
    const latest = latestCheckpoints(checkpoints);
    const events = historyReader(this.source).events;
    const ids = new Set([...(await events.tableIds()), ...latest.keys()]);
    const out: AnchoredChainVerdict[] = [];
    for (const tableId of [...ids].sort()) {
      const verdict = await this.table(tableId);
      const checkpoint = latest.get(tableId);
      const [at] = checkpoint ? await events.chainPage(tableId, checkpoint.eventNo - 1, 1) : [];
      const stored = {
        tableId,
        verified: verdict.events,
        intact: verdict.intact,
        ...(verdict.firstBrokenLink ? { firstBrokenLink: verdict.firstBrokenLink } : {}),
        ...(at ? { atCheckpoint: { eventNo: at.eventNo, hash: at.hash } } : {}),
      };
      out.push({ chain: verdict, anchor: checkAgainstCheckpoint(stored, checkpoint) });
    }
    return out;
  }

  async table(tableIdParam: string): Promise<TableChainVerdict> {
    const tableId = textParam('tableId', tableIdParam);
    if (tableId === undefined) throw new AuditRequestError('bad-request', 'tableId is required');
    const events = historyReader(this.source).events;
    const walker = new ChainWalker(tableId);
    let afterNo = -1;
    for (;;) {
      const page = await events.chainPage(tableId, afterNo, PAGE);
      if (page.length === 0) break;
      const broken = walker.walk(page);
      if (broken) {
        return { tableId, events: walker.checked, intact: false, firstBrokenLink: broken };
      }
      afterNo = page[page.length - 1].eventNo;
    }
    return { tableId, events: walker.checked, intact: true };
  }
}
