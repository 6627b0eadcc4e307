import { MigrationInterface, QueryRunner } from 'typeorm';

/** The platform of a stored player key (src/common/player-key.ts: bare = `default`). */
const PLATFORM_OF_PLAYER = `CASE WHEN strpos(player_id, ':') = 0 THEN 'default' ELSE split_part(player_id, ':', 1) END`;

const TABLES = ['bets', 'decisions', 'settlements'] as const;

/**
 * Players are (platform, playerId): every bet, decision and settlement row names its platform.
 * `player_id` keeps the player's key as the table core knows it (a `default` player's bare id,
 * `casino-a:alice` for the others), and `platform_id` is computed from it by the database, so no
 * writer can store a row whose platform and player disagree, and the hot path writes nothing more.
 * Indexed for the platforms' reconciliation reports and round lookups (by platform and time).
 */
export class PlayerPlatforms1765300000000 implements MigrationInterface {
  name = 'PlayerPlatforms1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN platform_id text GENERATED ALWAYS AS (${PLATFORM_OF_PLAYER}) STORED`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX settlements_platform_idx ON settlements (platform_id, settled_at)`,
    );
    await queryRunner.query(`CREATE INDEX bets_platform_round_idx ON bets (platform_id, round_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX bets_platform_round_idx`);
    await queryRunner.query(`DROP INDEX settlements_platform_idx`);
    for (const table of TABLES) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN platform_id`);
    }
  }
}
