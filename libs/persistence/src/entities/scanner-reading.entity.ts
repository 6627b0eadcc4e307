import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Every reading a table's card-shoe reader produced, garbage included: the raw bytes next to what
 * the decoder made of them and what the service did with the result. A row is stored as
 * `recorded` on arrival; a running table then sets its outcome in the transition that decided it.
 * Rows are never deleted; auditors replay a shoe from them.
 */
@Entity({ name: 'scanner_readings' })
@Index('scanner_readings_table_received_idx', ['tableId', 'receivedAt'])
export class ScannerReadingEntity {
  /** bigserial: also the order in which readings were received per table. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'table_id', type: 'text' })
  tableId!: string;

  /** Serial device path the bytes came from. */
  @Column({ type: 'text' })
  port!: string;

  @Column({ name: 'wire_format', type: 'text' })
  wireFormat!: string;

  /** card | unrecognised | status | heartbeat | invalid */
  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'bytea' })
  raw!: Buffer;

  /** The decoded reading without its raw bytes (card code, reason, detail, sequence check). */
  @Column({ type: 'jsonb' })
  decoded!: Record<string, unknown>;

  @Column({ name: 'device_seq', type: 'integer', nullable: true })
  deviceSeq!: number | null;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  /** What became of it: recorded, applied, rescan-required, duplicate, integrity-error, not-expected. */
  @Column({ type: 'text' })
  outcome!: string;

  /** The effects behind the outcome (slot, attempt, duplicate basis...), when there are any. */
  @Column({ name: 'outcome_detail', type: 'jsonb', nullable: true })
  outcomeDetail!: Record<string, unknown> | null;
}
