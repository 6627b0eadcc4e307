import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * The bets' and decisions' references to their round (and a bet's to its table) checked once per
 * statement instead of once per row. A foreign key runs a lookup (SELECT ... FOR KEY SHARE) for
 * every inserted row: for a batch of 5,000 bets that was about as costly as writing the rows with
 * all their indexes. A statement trigger looks each distinct round (one per batch) up once in the
 * rows the statement inserted. The violation keeps the foreign key's SQLSTATE (23503), so the
 * intake still isolates a command the database refuses. The references never change (an UPDATE
 * of them is refused) and rounds and tables are never deleted while rows name them (refused too).
 *
 * The three trigger functions' sources are in `src/history/sql/`; the triggers need them to exist,
 * so this migration applies the files' current versions (why that is sound: migration
 * 1764710000000).
 */
export class StatementRoundChecks1764846000000 implements MigrationInterface {
  name = 'StatementRoundChecks1764846000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets DROP CONSTRAINT bets_round_id_fkey`);
    await queryRunner.query(`ALTER TABLE bets DROP CONSTRAINT bets_table_id_fkey`);
    await queryRunner.query(`ALTER TABLE decisions DROP CONSTRAINT decisions_round_id_fkey`);
    await applyFunctionFile(queryRunner, functionFile('studio_check_rounds_exist'));
    for (const table of ['bets', 'decisions']) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_round_exists AFTER INSERT ON ${table}
          REFERENCING NEW TABLE AS inserted
          FOR EACH STATEMENT EXECUTE FUNCTION studio_check_rounds_exist()`);
    }
    await applyFunctionFile(queryRunner, functionFile('studio_refuse_reference_change'));
    // Only statements that set these columns fire it (a settlement's UPDATE of status does not).
    await queryRunner.query(`
      CREATE TRIGGER bets_references_fixed BEFORE UPDATE OF round_id, table_id ON bets
        FOR EACH ROW EXECUTE FUNCTION studio_refuse_reference_change()`);
    await queryRunner.query(`
      CREATE TRIGGER decisions_references_fixed BEFORE UPDATE OF round_id ON decisions
        FOR EACH ROW EXECUTE FUNCTION studio_refuse_reference_change()`);
    await applyFunctionFile(queryRunner, functionFile('studio_refuse_referenced_delete'));
    for (const table of ['rounds', 'studio_tables']) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_referenced BEFORE DELETE ON ${table}
          FOR EACH ROW EXECUTE FUNCTION studio_refuse_referenced_delete()`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['rounds', 'studio_tables']) {
      await queryRunner.query(`DROP TRIGGER ${table}_referenced ON ${table}`);
    }
    await queryRunner.query(`DROP FUNCTION studio_refuse_referenced_delete()`);
    await queryRunner.query(`DROP TRIGGER bets_references_fixed ON bets`);
    await queryRunner.query(`DROP TRIGGER decisions_references_fixed ON decisions`);
    await queryRunner.query(`DROP FUNCTION studio_refuse_reference_change()`);
    for (const table of ['bets', 'decisions']) {
      await queryRunner.query(`DROP TRIGGER ${table}_round_exists ON ${table}`);
    }
    await queryRunner.query(`DROP FUNCTION studio_check_rounds_exist()`);
    await queryRunner.query(
      `ALTER TABLE bets ADD CONSTRAINT bets_round_id_fkey FOREIGN KEY (round_id) REFERENCES rounds(id)`,
    );
    await queryRunner.query(
      `ALTER TABLE bets ADD CONSTRAINT bets_table_id_fkey FOREIGN KEY (table_id) REFERENCES studio_tables(id)`,
    );
    await queryRunner.query(
      `ALTER TABLE decisions ADD CONSTRAINT decisions_round_id_fkey FOREIGN KEY (round_id) REFERENCES rounds(id)`,
    );
  }
}
