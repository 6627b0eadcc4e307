import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A round event's chain head (its event number and hash) beside it in the outbox, published in the
 * envelope's `chain` (docs/chain.md): the last round event a platform received anchors every event
 * up to it, restricted ones included. Null for other events and for rows written before.
 */
export class OutboxChainHead1765210100000 implements MigrationInterface {
  name = 'OutboxChainHead1765210100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE outbox ADD COLUMN chain_event_no bigint NULL, ADD COLUMN chain_hash text NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE outbox DROP COLUMN chain_hash, DROP COLUMN chain_event_no`,
    );
  }
}
