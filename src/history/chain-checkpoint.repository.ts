import {
  CHAIN_CHECKPOINT,
  CHAIN_CHECKPOINT_SCHEMA_VERSION,
  ChainCheckpointPayload,
  topicName,
} from '@studio/contracts';
import { appendTableEvents } from '../outbox/outbox-writer';
import type { DataSource } from 'typeorm';

/** The newest link of a table's hash chain. */
export interface ChainHead {
  eventNo: number;
  hash: string;
}

/**
 * Chain checkpoints: reads a table's chain head and puts a ChainCheckpoint event for it in the
 * outbox. The checkpoint is an outbox event, not a round event: it anchors the chain without
 * being a link of it.
 */
export class ChainCheckpointRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly topicPrefix: string,
  ) {}

  /** False once the database connection has been closed (shutdown): nothing more can be stored. */
  get open(): boolean {
    return this.dataSource.isInitialized;
  }

  /** The table's newest round event, or undefined while its chain is empty. */
  async head(tableId: string): Promise<ChainHead | undefined> {
    const rows: Array<{ event_no: string; hash: string }> = await this.dataSource.query(
      `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
      [tableId],
    );
    return rows[0] ? { eventNo: Number(rows[0].event_no), hash: rows[0].hash } : undefined;
  }

  /**
   * A ChainCheckpoint event in the outbox: one statement (its sequence number handed out and its
   * row written), no transaction of its own. In a transaction of several round trips the table's
   * studio_tables row stayed locked that long, and the table's next transition (with the other
   * tables of its group commit) waited for it.
   */
  async append(eventId: string, payload: ChainCheckpointPayload): Promise<void> {
    await appendTableEvents(this.dataSource.manager, [
      {
        eventId,
        topic: topicName('tableEvents', this.topicPrefix),
        tableId: payload.tableId,
        type: CHAIN_CHECKPOINT,
        schemaVersion: CHAIN_CHECKPOINT_SCHEMA_VERSION,
        occurredAt: new Date(payload.checkpointAt),
        payload,
      },
    ]);
  }
}
