import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A table the service has been configured to run. One row per table id, ever. */
@Entity({ name: 'studio_tables' })
export class StudioTableEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  game!: string;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  /** The table's configuration as last registered (jsonb). */
  @Column({ type: 'jsonb' })
  configuration!: Record<string, unknown>;

  /** SHA-256 of the canonical configuration JSON: detects reconfiguration at start-up. */
  @Column({ name: 'configuration_hash', type: 'text' })
  configurationHash!: string;

  /** The last per-table event sequence number handed out; events use last + 1 under a row lock. */
  @Column({
    name: 'last_event_seq',
    type: 'bigint',
    default: 0,
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  lastEventSeq!: number;

  @Column({ name: 'registered_at', type: 'timestamptz' })
  registeredAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
