import { historyReader, HistorySource } from '../history/reader/history-reader';
import { textParam } from './audit-params';
import { AuditRequestError } from './audit-query';
import { BrokenLink, ChainWalker } from './event-chain-walk';

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
