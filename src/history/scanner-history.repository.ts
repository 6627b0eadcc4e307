import {
  SCANNER_STATUS_CHANGED,
  SCANNER_STATUS_CHANGED_SCHEMA_VERSION,
  topicName,
} from '@studio/contracts';
import type { ScannerStatusChangedPayload } from '@studio/contracts';
import { appendTableEvents } from '../outbox/outbox-writer';
import type { ReadingDisposition, ScannerReading } from '@studio/scanner-protocol';
import type { DataSource } from 'typeorm';

/** One scanner reading as it is stored: raw bytes, what was decoded, and what became of it. */
export interface ReadingRecord {
  tableId: string;
  port: string;
  wireFormat: string;
  reading: ScannerReading;
  outcome: ReadingDisposition;
  outcomeDetail?: Record<string, unknown> | null;
}

export function decodedOf(reading: ScannerReading): Record<string, unknown> {
  const { raw: _raw, receivedAt: _at, ...decoded } = reading;
  return decoded as Record<string, unknown>;
}

const COLUMNS = [
  'table_id',
  'port',
  'wire_format',
  'kind',
  'raw',
  'decoded',
  'device_seq',
  'received_at',
  'outcome',
  'outcome_detail',
];

/** Where the scanners' history goes: raw readings and the scanner status events. */
export class ScannerHistoryRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly topicPrefix: string,
  ) {}

  /** False once the database connection has been closed (shutdown): nothing more can be stored. */
  get open(): boolean {
    return this.dataSource.isInitialized;
  }

  /** Stores readings in one statement; returns their ids in the order given. */
  async insertReadings(batch: readonly ReadingRecord[]): Promise<string[]> {
    const params: unknown[] = [];
    const tuples = batch.map((record) => {
      const values = [
        record.tableId,
        record.port,
        record.wireFormat,
        record.reading.kind,
        Buffer.from(record.reading.raw),
        JSON.stringify(decodedOf(record.reading)),
        record.reading.sequence ?? null,
        new Date(record.reading.receivedAt),
        record.outcome,
        record.outcomeDetail ? JSON.stringify(record.outcomeDetail) : null,
      ];
      const placeholders = values.map((v) => {
        params.push(v);
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    // PostgreSQL returns the rows of a multi-row VALUES insert in the order given.
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO scanner_readings (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} RETURNING id`,
      params,
    );
    return rows.map((r) => String(r.id));
  }

  /** A ScannerStatusChanged event for platforms and consoles, through the outbox. */
  async appendStatusChanged(
    eventId: string,
    occurredAt: Date,
    payload: ScannerStatusChangedPayload,
  ): Promise<void> {
    await this.dataSource.transaction((manager) =>
      appendTableEvents(manager, [
        {
          eventId,
          topic: topicName('tableEvents', this.topicPrefix),
          tableId: payload.tableId,
          type: SCANNER_STATUS_CHANGED,
          schemaVersion: SCANNER_STATUS_CHANGED_SCHEMA_VERSION,
          occurredAt,
          payload,
        },
      ]),
    );
  }
}
