import { topicName } from '@studio/contracts';
import { appendTableEvents } from '@studio/persistence';
import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { eventHash, GENESIS_HASH } from '../../tables/event-chain';

/**
 * The table's hash-chained event log (every event, restricted ones too) and the outbox rows for
 * its public events, written in the same transaction so nothing is announced that is not stored.
 */
export class RoundEventsRepository {
  constructor(private readonly topicPrefix: string) {}

  async append(
    manager: EntityManager,
    tableId: string,
    events: TableWrites['events'],
    occurredAt: Date,
    newId: () => string,
  ): Promise<void> {
    if (events.length === 0) return;
    await this.appendToChain(manager, tableId, events, occurredAt);
    const published = events.filter((e) => e.visibility === 'public');
    if (published.length === 0) return;
    await appendTableEvents(
      manager,
      published.map((e) => ({
        eventId: newId(),
        topic: topicName('tableEvents', this.topicPrefix),
        tableId,
        roundId: e.roundId ?? undefined,
        type: e.type,
        schemaVersion: 1,
        occurredAt,
        payload: e.payload,
      })),
    );
  }

  private async appendToChain(
    manager: EntityManager,
    tableId: string,
    events: TableWrites['events'],
    at: Date,
  ): Promise<void> {
    const [last] = await manager.query(
      `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
      [tableId],
    );
    let eventNo = last ? Number(last.event_no) : 0;
    let prevHash: string = last ? last.hash : GENESIS_HASH;
    const occurredAt = at.toISOString();
    const rows: unknown[] = [];
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
      };
      const hash = eventHash(prevHash, fields);
      rows.push({ ...fields, prevHash, hash });
      prevHash = hash;
    }
    await manager.query(
      `INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
       SELECT $2, e."eventNo", e."roundId", e.type, e.visibility, e.payload, e.actor, e."occurredAt", e."prevHash", e.hash
         FROM jsonb_to_recordset($1::jsonb) AS e("eventNo" bigint, "roundId" uuid, type text, visibility text,
              payload jsonb, actor text, "occurredAt" timestamptz, "prevHash" text, hash text)`,
      [JSON.stringify(rows), tableId],
    );
  }
}
