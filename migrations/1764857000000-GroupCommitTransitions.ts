import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * Group commit: the transitions of several tables that are ready together in one call and one
 * commit (a commit's WAL flush and round trip shared), each still all-or-nothing on its own:
 * studio_commit_transitions, whose source is `src/history/sql/studio_commit_transitions.sql`.
 * Applies the file's current version (why: migration 1764710000000).
 */
export class GroupCommitTransitions1764857000000 implements MigrationInterface {
  name = 'GroupCommitTransitions1764857000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await applyFunctionFile(queryRunner, functionFile('studio_commit_transitions'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION studio_commit_transitions(jsonb, json[])`);
  }
}
