import { MigrationInterface, QueryRunner } from 'typeorm';

/** studio_commit_commands before each bet carried its own currency. */
const OLD_COMMIT_COMMANDS = `studio_commit_commands(jsonb, json, text[], uuid[], text[], text[],
  text[], text[], bigint[], bigint[], text[], uuid[], text[], text[], text[], boolean[], text[],
  text[], int[], text[], text[], text[])`;

/**
 * A table may accept several currencies and each bet is in its own (docs/wallet-model.md): every
 * settlement row names its currency, as its bet row already did, so the platforms' reports and
 * the hold figures group by it instead of guessing it from the bet or the table. Rows written
 * before are in their bet's currency, else in that of the player's first bet of the round (an
 * insurance has no bet row), else in their table's (the only currency a table had until now).
 * studio_commit_commands takes each bet's currency: a new argument, so the old signature is dropped
 * here and the repeatable step that follows the migrations creates the file's version (as it
 * replaces studio_write_settlements, which now stores each settlement's currency).
 */
export class CurrenciesPerBet1765810000000 implements MigrationInterface {
  name = 'CurrenciesPerBet1765810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE settlements ADD COLUMN currency char(3)`);
    await queryRunner.query(
      `UPDATE settlements s
          SET currency = COALESCE(
                (SELECT b.currency FROM bets b WHERE b.id = s.bet_id),
                (SELECT b.currency FROM bets b
                  WHERE b.round_id = s.round_id AND b.player_id = s.player_id
                  ORDER BY b.placed_at, b.id LIMIT 1),
                (SELECT t.currency FROM rounds r JOIN studio_tables t ON t.id = r.table_id
                  WHERE r.id = s.round_id))`,
    );
    await queryRunner.query(`ALTER TABLE settlements ALTER COLUMN currency SET NOT NULL`);
    // The repeatable step (migrations/functions.ts) then creates the file's version of it.
    await queryRunner.query(`DROP FUNCTION IF EXISTS ${OLD_COMMIT_COMMANDS}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS studio_commit_commands(jsonb, json, text[], uuid[], text[], text[],
         text[], text[], bigint[], bigint[], text[], text[], uuid[], text[], text[], text[],
         boolean[], text[], text[], int[], text[], text[], text[])`,
    );
    await queryRunner.query(`ALTER TABLE settlements DROP COLUMN currency`);
  }
}
