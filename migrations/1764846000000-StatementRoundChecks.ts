import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bets' and decisions' references to their round (and a bet's to its table) checked once per
 * statement instead of once per row. A foreign key runs a lookup (SELECT ... FOR KEY SHARE) for
 * every inserted row: for a batch of 5,000 bets that was about as costly as writing the rows with
 * all their indexes. A statement trigger looks each distinct round (one per batch) up once in the
 * rows the statement inserted. The violation keeps the foreign key's SQLSTATE (23503), so the
 * intake still isolates a command the database refuses. The references never change (an UPDATE
 * of them is refused) and rounds and tables are never deleted while rows name them (refused too).
 */
export class StatementRoundChecks1764846000000 implements MigrationInterface {
  name = 'StatementRoundChecks1764846000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE bets DROP CONSTRAINT bets_round_id_fkey`);
    await queryRunner.query(`ALTER TABLE bets DROP CONSTRAINT bets_table_id_fkey`);
    await queryRunner.query(`ALTER TABLE decisions DROP CONSTRAINT decisions_round_id_fkey`);
    await queryRunner.query(`
      CREATE FUNCTION studio_check_rounds_exist() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        missing text;
      BEGIN
        SELECT n.round_id::text INTO missing
          FROM (SELECT DISTINCT round_id FROM inserted) n
         WHERE NOT EXISTS (SELECT 1 FROM rounds r WHERE r.id = n.round_id)
         LIMIT 1;
        IF missing IS NOT NULL THEN
          RAISE foreign_key_violation
            USING MESSAGE = format('%s row of round %s, which does not exist', TG_TABLE_NAME, missing);
        END IF;
        IF TG_TABLE_NAME = 'bets' THEN
          SELECT n.table_id INTO missing
            FROM (SELECT DISTINCT table_id FROM inserted) n
           WHERE NOT EXISTS (SELECT 1 FROM studio_tables t WHERE t.id = n.table_id)
           LIMIT 1;
          IF missing IS NOT NULL THEN
            RAISE foreign_key_violation
              USING MESSAGE = format('bet of table %s, which does not exist', missing);
          END IF;
        END IF;
        RETURN NULL;
      END
      $fn$`);
    for (const table of ['bets', 'decisions']) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_round_exists AFTER INSERT ON ${table}
          REFERENCING NEW TABLE AS inserted
          FOR EACH STATEMENT EXECUTE FUNCTION studio_check_rounds_exist()`);
    }
    await queryRunner.query(`
      CREATE FUNCTION studio_refuse_reference_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE foreign_key_violation
          USING MESSAGE = format('%s rows keep the round (and table) they were written for', TG_TABLE_NAME);
      END
      $fn$`);
    // Only statements that set these columns fire it (a settlement's UPDATE of status does not).
    await queryRunner.query(`
      CREATE TRIGGER bets_references_fixed BEFORE UPDATE OF round_id, table_id ON bets
        FOR EACH ROW EXECUTE FUNCTION studio_refuse_reference_change()`);
    await queryRunner.query(`
      CREATE TRIGGER decisions_references_fixed BEFORE UPDATE OF round_id ON decisions
        FOR EACH ROW EXECUTE FUNCTION studio_refuse_reference_change()`);
    await queryRunner.query(`
      CREATE FUNCTION studio_refuse_referenced_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        named boolean;
      BEGIN
        -- OLD.id is a round's uuid or a table's text: each comparison only where its type fits.
        IF TG_TABLE_NAME = 'rounds' THEN
          named := EXISTS (SELECT 1 FROM bets WHERE round_id = OLD.id::text::uuid)
                OR EXISTS (SELECT 1 FROM decisions WHERE round_id = OLD.id::text::uuid);
        ELSE
          named := EXISTS (SELECT 1 FROM bets WHERE table_id = OLD.id::text);
        END IF;
        IF named THEN
          RAISE foreign_key_violation
            USING MESSAGE = format('%s row %s is named by bets or decisions', TG_TABLE_NAME, OLD.id);
        END IF;
        RETURN OLD;
      END
      $fn$`);
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
