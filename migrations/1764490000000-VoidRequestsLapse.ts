import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A void request still waiting for a second supervisor when its round ends (completed, or voided
 * by another request) can no longer be applied: it becomes `lapsed` instead of lingering as
 * `pending-approval` with an Approve button that can only fail.
 */
export class VoidRequestsLapse1764490000000 implements MigrationInterface {
  name = 'VoidRequestsLapse1764490000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE supervisor_actions DROP CONSTRAINT supervisor_actions_status_check`,
    );
    await queryRunner.query(
      `ALTER TABLE supervisor_actions ADD CONSTRAINT supervisor_actions_status_check
         CHECK (status IN ('applied', 'pending-approval', 'refused', 'lapsed'))`,
    );
    // Requests of rounds that have already ended.
    await queryRunner.query(
      `UPDATE supervisor_actions a SET status = 'lapsed'
         FROM rounds r
        WHERE r.id = a.round_id AND a.status = 'pending-approval' AND r.ended_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE supervisor_actions SET status = 'pending-approval' WHERE status = 'lapsed'`,
    );
    await queryRunner.query(
      `ALTER TABLE supervisor_actions DROP CONSTRAINT supervisor_actions_status_check`,
    );
    await queryRunner.query(
      `ALTER TABLE supervisor_actions ADD CONSTRAINT supervisor_actions_status_check
         CHECK (status IN ('applied', 'pending-approval', 'refused'))`,
    );
  }
}
