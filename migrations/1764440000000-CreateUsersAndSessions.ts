import { MigrationInterface, QueryRunner } from 'typeorm';

/** People who use the consoles and the API (dealer, supervisor, auditor) and their sign-in tokens. */
export class CreateUsersAndSessions1764440000000 implements MigrationInterface {
  name = 'CreateUsersAndSessions1764440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        username text NOT NULL UNIQUE CHECK (username ~ '^[a-z0-9][a-z0-9._-]{1,63}$'),
        display_name text NOT NULL,
        role text NOT NULL CHECK (role IN ('dealer', 'supervisor', 'auditor')),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        disabled_at timestamptz NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE user_sessions (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NULL
      )`);
    await queryRunner.query(`CREATE INDEX user_sessions_user_idx ON user_sessions (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE user_sessions`);
    await queryRunner.query(`DROP TABLE users`);
  }
}
