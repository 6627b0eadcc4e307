import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in protection shared by every instance: throttle counters (per account and per address) and
 * the failed-attempt count with its temporary lockout per username (known or not, so that a lockout
 * does not reveal which usernames exist).
 */
export class SignInProtection1764510000000 implements MigrationInterface {
  name = 'SignInProtection1764510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE sign_in_throttle (
         key text PRIMARY KEY,
         hits integer NOT NULL,
         window_ends_at timestamptz NOT NULL,
         blocked_until timestamptz
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE sign_in_failures (
         username text PRIMARY KEY,
         failures integer NOT NULL,
         last_failure_at timestamptz NOT NULL,
         locked_until timestamptz
       )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sign_in_failures`);
    await queryRunner.query(`DROP TABLE sign_in_throttle`);
  }
}
