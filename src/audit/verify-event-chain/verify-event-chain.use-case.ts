import { historyReader, HistorySource } from '../../history/reader/history-reader';
import { onlyKnownParams, textParam } from '../audit-params';
import { AuditRequestError, validated } from '../audit-query';
import {
  AnchorVerdict,
  BrokenLink,
  ChainCheckpoint,
  ChainWalker,
  checkAgainstCheckpoint,
  latestCheckpoints,
} from '../event-chain-walk';

/**
 * A table's chain walk and its comparison with the newest published head: every event up to
 * `anchoredUpTo` is anchored when `anchor.status` is 'anchored'; the events after it are not
 * published yet (or their anchors were not found), `unanchored` says how many and since when.
 */
export interface AnchoredChainVerdict {
  chain: TableChainVerdict;
  anchor: AnchorVerdict;
  anchoredUpTo: number;
  unanchored: { events: number; oldestAt: string | null; ageSeconds: number | null };
}

/** What /audit/chain answers per table: the walk and its anchoring as the database records it. */
export type PublishedChainVerdict = TableChainVerdict &
  Pick<AnchoredChainVerdict, 'anchoredUpTo' | 'unanchored'> & { anchor: AnchorVerdict };

export interface TableChainVerdict {
  tableId: string;
  events: number;
  intact: boolean;
  firstBrokenLink?: BrokenLink;
}

const PAGE = 5_000;

/** What /audit/chain reads: one table, or every table when `tableId` is absent or empty. */
export class VerifyEventChainQuery {
  private constructor(readonly tableId: string | undefined) {}

  static create(params: { tableId?: unknown }): VerifyEventChainQuery | AuditRequestError {
    return validated(() => {
      onlyKnownParams(params, ['tableId']);
      return new VerifyEventChainQuery(textParam('tableId', params.tableId));
    });
  }
}

/**
 * Tamper evidence: walks each table's round events in event_no order, recomputing every hash
 * from the row's content and the previous row's hash, and names the first broken link. The row
 * order is by event_no, not by id, so rows renumbered to reorder them break the prev_hash links.
 */
export class VerifyEventChain {
  constructor(
    private readonly source: HistorySource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The walk of each table (or one) against the newest head the relay published for it, as the
   * outbox records it: what the service itself knows. An auditor's independent check reads the
   * heads from Kafka instead (againstCheckpoints).
   */
  async againstPublished(tableId?: string): Promise<PublishedChainVerdict[]> {
    const events = historyReader(this.source).events;
    const ids = tableId === undefined ? await events.tableIds() : [tableId];
    const out: PublishedChainVerdict[] = [];
    for (const id of ids) {
      const head = await events.publishedHead(id);
      const checkpoint = head && { tableId: id, ...head, checkpointAt: head.publishedAt };
      const v = await this.anchored(id, checkpoint);
      out.push({
        ...v.chain,
        anchoredUpTo: v.anchoredUpTo,
        anchor: v.anchor,
        unanchored: v.unanchored,
      });
    }
    return out;
  }

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
    for (const tableId of [...ids].sort())
      out.push(await this.anchored(tableId, latest.get(tableId)));
    return out;
  }

  private async anchored(
    tableId: string,
    checkpoint: ChainCheckpoint | undefined,
  ): Promise<AnchoredChainVerdict> {
    const events = historyReader(this.source).events;
    const verdict = await this.table(tableId);
    const [at] = checkpoint ? await events.chainPage(tableId, checkpoint.eventNo - 1, 1) : [];
    const stored = {
      tableId,
      verified: verdict.events,
      intact: verdict.intact,
      ...(verdict.firstBrokenLink ? { firstBrokenLink: verdict.firstBrokenLink } : {}),
      ...(at ? { atCheckpoint: { eventNo: at.eventNo, hash: at.hash } } : {}),
    };
    const anchoredUpTo = checkpoint?.eventNo ?? 0;
    const tail = await events.tail(tableId, anchoredUpTo);
    const ageSeconds =
      tail.oldestAt === null
        ? null
        : Math.max(0, Math.floor((this.now().getTime() - Date.parse(tail.oldestAt)) / 1000));
    return {
      chain: verdict,
      anchor: checkAgainstCheckpoint(stored, checkpoint),
      anchoredUpTo,
      unanchored: { ...tail, ageSeconds },
    };
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
