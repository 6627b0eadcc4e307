import { MigrationInterface, QueryRunner } from 'typeorm';
import { applyFunctionFile } from '../src/database/schema-functions';
import { functionFile } from './functions';

/**
 * What each round staked and won, per currency and bet type, kept beside the settlements it sums.
 * Live hold monitoring (the supervisor console's start-up and every /metrics refresh) read a
 * table's last 200 completed rounds by summing their settlements: 200 rows a round at a crowded
 * Infinite Blackjack table, 2 million at one of 10,000 players, for every table, every 30 s. From
 * this table it reads a few rows a round, whatever the crowd. A statement trigger on settlements
 * keeps it (`src/history/sql/studio_sum_round_stakes.sql`); rows written before are summed here.
 * It is derived data: recomputable from settlements at any time (docs/retention.md).
 */
export class RoundStakes1765900000000 implements MigrationInterface {
  name = 'RoundStakes1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE round_stakes (
        round_id uuid NOT NULL,
        currency char(3) NOT NULL,
        bet_type text NOT NULL,
        stake bigint NOT NULL,
        net bigint NOT NULL,
        bets integer NOT NULL,
        PRIMARY KEY (round_id, currency, bet_type)
      )`);
    await queryRunner.query(`
      INSERT INTO round_stakes (round_id, currency, bet_type, stake, net, bets)
      SELECT round_id, currency, bet_type, sum(stake), sum(net), count(*)
        FROM settlements
       WHERE outcome <> 'cancelled'
       GROUP BY round_id, currency, bet_type`);
    await applyFunctionFile(queryRunner, functionFile('studio_sum_round_stakes'));
    await queryRunner.query(`
      CREATE TRIGGER settlements_sum_round_stakes AFTER INSERT ON settlements
        REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION studio_sum_round_stakes()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER settlements_sum_round_stakes ON settlements`);
    await queryRunner.query(`DROP FUNCTION studio_sum_round_stakes()`);
    await queryRunner.query(`DROP TABLE round_stakes`);
  }
}
