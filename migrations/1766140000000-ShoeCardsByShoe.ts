import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A shoe's cards of no round (its burn), found by shoe: the month archive writes them beside the
 * shoes that finished in the month. A partial index, as small as the burns themselves; without
 * it each page of shoes read every burn the studio ever stored.
 */
export class ShoeCardsByShoe1766140000000 implements MigrationInterface {
  name = 'ShoeCardsByShoe1766140000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS round_cards_shoe_burn_idx ON round_cards (shoe_id, id)
        WHERE round_id IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS round_cards_shoe_burn_idx`);
  }
}
