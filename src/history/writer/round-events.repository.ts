import { topicName } from '@studio/contracts';
import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { OutboxRecord, outboxRecord } from '../../outbox/outbox-writer';
import { CHAIN_VERSION, ChainedEvent, eventHash, GENESIS_HASH, newSalt } from '../event-chain';

/** The last event of a table's hash chain (eventNo 0 and the genesis hash before the first). */
export interface ChainHead {
  eventNo: number;
  hash: string;
}

type Query = Pick<EntityManager, 'query'>;

/**
 * The table's hash-chained event log (every event, restricted ones too) and the outbox records
 * of its public events, both written by the transition's call, so nothing is announced that is
 * not stored.
 *
 * The owner of a table keeps its chain's last event in memory (`heads`): a transition chains its
 * events to it without reading it first, and the call that stores them checks it is still the
 * last one. A head is only remembered once its transition committed, and forgotten when a
 * transition fails or the table is (re)loaded.
 */
export class RoundEventsRepository {
  private readonly heads = new Map<string, ChainHead>();
  private readonly topic: string;

  constructor(topicPrefix: string) {
    this.topic = topicName('tableEvents', topicPrefix);
  }

  /** The chain's last event as far as this owner knows, read from the log when not known. */
  async head(db: Query, tableId: string): Promise<ChainHead> {
    const known = this.heads.get(tableId);
    if (known) return known;
    const [last] = await db.query(
      `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
      [tableId],
    );
    return last ? { eventNo: Number(last.event_no), hash: last.hash } : GENESIS;
  }

  remember(tableId: string, head: ChainHead): void {
    this.heads.set(tableId, head);
  }

  forget(tableId: string): void {
    this.heads.delete(tableId);
  }

  /** The events chained after `head`, and the chain's head after them. */
  chain(
    tableId: string,
    events: TableWrites['events'],
    at: Date,
    head: ChainHead,
  ): { rows: ChainedEvent[]; head: ChainHead } {
    let eventNo = head.eventNo;
    let prevHash = head.hash;
    const occurredAt = at.toISOString();
    const rows: ChainedEvent[] = [];
    for (const e of events) {
      eventNo += 1;
      const fields = {
        tableId,
        eventNo,
        roundId: e.roundId,
        type: e.type,
        visibility: e.visibility,
        payload: e.payload,
        actor: e.actor ?? null,
        occurredAt,
        chainVersion: CHAIN_VERSION,
        salt: newSalt(),
      };
      const hash = eventHash(prevHash, fields);
      rows.push({ ...fields, prevHash, hash });
      prevHash = hash;
    }
    return { rows, head: { eventNo, hash: prevHash } };
  }

  /**
   * The outbox records of the public events, each with the chain head at it (itself): the last
   * one a platform received anchors the restricted events before it too (docs/chain.md).
   */
  outboxRecords(events: readonly ChainedEvent[], at: Date, newId: () => string): OutboxRecord[] {
    return events
      .filter((e) => e.visibility === 'public')
      .map((e) => ({
        ...outboxRecord({
          eventId: newId(),
          topic: this.topic,
          roundId: e.roundId,
          type: e.type,
          schemaVersion: 1,
          occurredAt: at,
          payload: e.payload,
        }),
        chain: { eventNo: e.eventNo, hash: e.hash },
      }));
  }
}

const GENESIS: ChainHead = { eventNo: 0, hash: GENESIS_HASH };
