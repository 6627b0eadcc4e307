import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the auditor's searches, so they stay index scans as history grows. Every search is
 * keyset-paginated on (started_at DESC, id DESC), so each index ends with those two columns and a
 * page is a range scan that stops after `limit` rows, whatever the filter.
 */
export class AuditIndexes1764470000000 implements MigrationInterface {
  name = 'AuditIndexes1764470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // All rounds in a time range (and the export), newest first.
    await queryRunner.query(`CREATE INDEX rounds_started_idx ON rounds (started_at DESC, id DESC)`);
    // By table (optionally with status), by game, by shoe.
    await queryRunner.query(
      `CREATE INDEX rounds_table_started_id_idx ON rounds (table_id, started_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX rounds_game_started_idx ON rounds (game, started_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX rounds_status_started_id_idx ON rounds (status, started_at DESC, id DESC)`,
    );
    // Status with a table or a game: without these, a combination with few or no rows (a game
    // with no voided round) walks every row of the status.
    await queryRunner.query(
      `CREATE INDEX rounds_table_status_started_idx ON rounds (table_id, status, started_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX rounds_game_status_started_idx ON rounds (game, status, started_at DESC, id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX rounds_shoe_idx ON rounds (shoe_id, round_number)`);
    // A player's rounds and bet history: bets by player, newest first, with a unique tiebreak.
    await queryRunner.query(
      `CREATE INDEX bets_player_placed_id_idx ON bets (player_id, placed_at DESC, id DESC)`,
    );
    // The timeline: readings of a round's cards, supervisor actions of a round.
    await queryRunner.query(
      `CREATE INDEX supervisor_actions_round_idx ON supervisor_actions (round_id) WHERE round_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX round_cards_reading_idx ON round_cards (reading_id) WHERE reading_id IS NOT NULL`,
    );
    // The superseded indexes are prefixes of the new ones.
    await queryRunner.query(`DROP INDEX IF EXISTS rounds_table_started_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS rounds_status_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS bets_player_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX bets_player_idx ON bets (player_id, placed_at DESC)`);
    await queryRunner.query(`CREATE INDEX rounds_status_idx ON rounds (status, started_at DESC)`);
    await queryRunner.query(
      `CREATE INDEX rounds_table_started_idx ON rounds (table_id, started_at DESC)`,
    );
    for (const index of [
      'round_cards_reading_idx',
      'supervisor_actions_round_idx',
      'bets_player_placed_id_idx',
      'rounds_shoe_idx',
      'rounds_game_status_started_idx',
      'rounds_table_status_started_idx',
      'rounds_status_started_id_idx',
      'rounds_game_started_idx',
      'rounds_table_started_id_idx',
      'rounds_started_idx',
    ]) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
  }
}
