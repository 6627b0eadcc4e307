import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * A batch of platform commands (a window's bets or decisions, with their answers) in one call, as
 * a card reading already is: studio_commit_commands, whose source is
 * `src/history/sql/studio_commit_commands.sql`. The statement path cost a round trip per kind of
 * row (eleven for a batch of bets) and the intake waited for each. Applies the file's current
 * version (why: migration 1764710000000).
 */
export class CommandBatchTransition1764830000000 implements MigrationInterface {
  name = 'CommandBatchTransition1764830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await applyFunctionFile(queryRunner, functionFile('studio_commit_commands'));
  }

  /**
   * Every version of it, whatever its arguments: the up step applies the file's current version,
   * whose arguments a later migration may have changed (1765810000000 added each bet's currency).
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DO $$
       DECLARE f regprocedure;
       BEGIN
         FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
                   WHERE p.proname = 'studio_commit_commands' AND p.pronamespace = current_schema()::regnamespace
         LOOP
           EXECUTE 'DROP FUNCTION ' || f;
         END LOOP;
       END $$`,
    );
  }
}
