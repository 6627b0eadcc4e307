import type { AuditQuery } from './audit-query';
import { BrokenLink, ChainWalker, StoredChainEvent } from './event-chain-walk';

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
  constructor(private readonly q: AuditQuery) {}

  async all(): Promise<TableChainVerdict[]> {
    const tables = await this.q<{ id: string }>(`SELECT id FROM studio_tables ORDER BY id`);
    const out: TableChainVerdict[] = [];
    for (const t of tables) out.push(await this.table(t.id));
    return out;
  }

  async table(tableId: string): Promise<TableChainVerdict> {
    const walker = new ChainWalker(tableId);
    let afterNo = -1;
    for (;;) {
      const rows = await this.q<{
        id: string;
        event_no: string;
        round_id: string | null;
        type: string;
        visibility: string;
        payload: unknown;
        actor: string | null;
        occurred_at: Date;
        prev_hash: string;
        hash: string;
      }>(
        `SELECT id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash
           FROM round_events WHERE table_id = $1 AND event_no > $2 ORDER BY event_no LIMIT ${PAGE}`,
        [tableId, afterNo],
      );
      if (rows.length === 0) break;
      const events: StoredChainEvent[] = rows.map((r) => ({
        id: String(r.id),
        tableId,
        eventNo: Number(r.event_no),
        roundId: r.round_id,
        type: r.type,
        visibility: r.visibility,
        payload: r.payload,
        actor: r.actor,
        occurredAt: new Date(r.occurred_at).toISOString(),
        prevHash: r.prev_hash,
        hash: r.hash,
      }));
      const broken = walker.walk(events);
      if (broken) {
        return { tableId, events: walker.checked, intact: false, firstBrokenLink: broken };
      }
      afterNo = events[events.length - 1].eventNo;
    }
    return { tableId, events: walker.checked, intact: true };
  }
}
