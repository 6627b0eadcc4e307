import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A command that writes a bet or a decision row keeps its answer in that row (`answer`, on the
 * first row of the command) instead of a `processed_commands` row of its own: one row per
 * command where one suffices. The partial unique indexes keep a command id answered once per
 * table and let a repeat find its stored answer; commands without such a row (refusals, other
 * kinds) are still answered from `processed_commands`.
 */
export class AnswersInCommandRows1764700000000 implements MigrationInterface {
  name = 'AnswersInCommandRows1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets ADD COLUMN answer jsonb NULL`);
    await queryRunner.query(`ALTER TABLE decisions ADD COLUMN answer jsonb NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX bets_command_answer_idx ON bets (command_id) WHERE answer IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX decisions_command_answer_idx ON decisions (command_id) WHERE answer IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The answers move back to processed_commands, where the previous version looks for them.
    for (const table of ['bets', 'decisions']) {
      await queryRunner.query(
        `INSERT INTO processed_commands (command_id, table_id, kind, result, received_at)
         SELECT command_id, ${table === 'bets' ? 'table_id' : 'NULL'},
                '${table === 'bets' ? 'place-bet' : 'decide'}', answer,
                ${table === 'bets' ? 'placed_at' : 'decided_at'}
           FROM ${table} WHERE answer IS NOT NULL
         ON CONFLICT (command_id) DO NOTHING`,
      );
      await queryRunner.query(`DROP INDEX ${table}_command_answer_idx`);
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN answer`);
    }
  }
}
