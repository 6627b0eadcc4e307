import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * A table transition of the common kind in one call, so that it costs one round trip and one
 * commit instead of twelve round trips and two commits: studio_commit_transition, whose source is
 * `src/history/sql/studio_commit_transition.sql`.
 *
 * This migration created the function with the body of its day. It now applies the file's current
 * version instead, and so does every migration that introduced a function: on a fresh database the
 * function exists from here on, already as the file has it (PL/pgSQL resolves what it names when
 * called, not when created); a database migrated long ago has its body replaced by the repeatable
 * step after the versioned migrations. Both end with the file's body (migrations/functions.ts).
 */
export class TransitionFunction1764710000000 implements MigrationInterface {
  name = 'TransitionFunction1764710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await applyFunctionFile(queryRunner, functionFile('studio_commit_transition'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION studio_commit_transition(jsonb, json)`);
  }
}
