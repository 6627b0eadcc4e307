import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

const bigintAsNumber = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null ? null : Number(v)),
};

/**
 * Transactional outbox: an event is written here in the same transaction as the state change that
 * caused it, and only then published to Kafka by the relay. Rows are never deleted by the service.
 */
@Entity({ name: 'outbox' })
export class OutboxEventEntity {
  /** bigserial; kept as a string because it may exceed Number.MAX_SAFE_INTEGER in theory. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'text' })
  topic!: string;

  /** Kafka message key: the table id, so that one table's events stay in one partition, in order. */
  @Column({ name: 'table_id', type: 'text' })
  tableId!: string;

  @Column({ name: 'round_id', type: 'text', nullable: true })
  roundId!: string | null;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  seq!: number;

  @Column({ type: 'text' })
  type!: string;

  @Column({ name: 'schema_version', type: 'integer' })
  schemaVersion!: number;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  @Column({ name: 'publish_attempts', type: 'integer', default: 0 })
  publishAttempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
