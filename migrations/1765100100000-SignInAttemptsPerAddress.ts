import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in protection an attacker cannot turn against the staff: failures are counted per
 * (account, address) pair, whose delays and lockout keep out that address only, and per account
 * in a draining bucket, which slows attempts from new addresses once full but never locks. The
 * per-username lockout (`sign_in_failures`), which locked the owner out too, goes; a pair's
 * `last_success_at` marks the addresses the account was signed in from.
 */
export class SignInAttemptsPerAddress1765100100000 implements MigrationInterface {
  name = 'SignInAttemptsPerAddress1765100100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sign_in_failures`);
    await queryRunner.query(
      `CREATE TABLE sign_in_pairs (
         username text NOT NULL,
         address text NOT NULL,
         failures integer NOT NULL,
         retry_at timestamptz,
         locked_until timestamptz,
         last_attempt_at timestamptz,
         last_success_at timestamptz,
         PRIMARY KEY (username, address)
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE sign_in_accounts (
         username text PRIMARY KEY,
         failures double precision NOT NULL,
         updated_at timestamptz NOT NULL
       )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sign_in_accounts`);
    await queryRunner.query(`DROP TABLE sign_in_pairs`);
    await queryRunner.query(
      `CREATE TABLE sign_in_failures (
         username text PRIMARY KEY,
         failures integer NOT NULL,
         last_failure_at timestamptz NOT NULL,
         locked_until timestamptz
       )`,
    );
  }
}
