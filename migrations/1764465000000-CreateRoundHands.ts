import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every hand of every finished round: its cards, its value and how it ended. */
export class CreateRoundHands1764465000000 implements MigrationInterface {
  name = 'CreateRoundHands1764465000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE round_hands (
        id bigserial PRIMARY KEY,
        round_id uuid NOT NULL REFERENCES rounds(id),
        hand text NOT NULL,
        owner text NULL,
        cards text[] NOT NULL,
        total text NOT NULL,
        result text NULL,
        UNIQUE (round_id, hand)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE round_hands`);
  }
}
