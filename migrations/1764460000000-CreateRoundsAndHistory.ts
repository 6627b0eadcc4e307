import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Everything a round leaves behind. `table_state` is the live state of each table (one row,
 * rewritten by every transition, the only thing needed to resume after a crash); the other tables
 * are append-mostly history for supervisors and auditors. Money columns are bigint minor units.
 */
export class CreateRoundsAndHistory1764460000000 implements MigrationInterface {
  name = 'CreateRoundsAndHistory1764460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE shoes (
        id uuid PRIMARY KEY,
        table_id text NOT NULL REFERENCES studio_tables(id),
        shoe_number integer NOT NULL,
        deck_count integer NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'finished')),
        started_at timestamptz NOT NULL,
        finished_at timestamptz NULL,
        finish_reason text NULL,
        UNIQUE (table_id, shoe_number)
      )`);
    await queryRunner.query(`
      CREATE TABLE rounds (
        id uuid PRIMARY KEY,
        table_id text NOT NULL REFERENCES studio_tables(id),
        shoe_id uuid NULL REFERENCES shoes(id),
        shoe_number integer NOT NULL,
        round_number integer NOT NULL,
        game text NOT NULL,
        status text NOT NULL CHECK (status IN ('in-progress', 'paused', 'completed', 'voided')),
        phase text NOT NULL,
        started_at timestamptz NOT NULL,
        ended_at timestamptz NULL,
        void_reason text NULL,
        final_state jsonb NULL,
        UNIQUE (table_id, shoe_number, round_number)
      )`);
    await queryRunner.query(
      `CREATE INDEX rounds_table_started_idx ON rounds (table_id, started_at DESC)`,
    );
    await queryRunner.query(`CREATE INDEX rounds_status_idx ON rounds (status, started_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE table_state (
        table_id text PRIMARY KEY REFERENCES studio_tables(id),
        version bigint NOT NULL,
        state jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    // Append-only log of everything that happened at a table, public and restricted (face-down
    // cards), each row chained to the previous one of its table by a SHA-256 hash.
    await queryRunner.query(`
      CREATE TABLE round_events (
        id bigserial PRIMARY KEY,
        table_id text NOT NULL REFERENCES studio_tables(id),
        event_no bigint NOT NULL,
        round_id uuid NULL REFERENCES rounds(id),
        type text NOT NULL,
        visibility text NOT NULL CHECK (visibility IN ('public', 'restricted')),
        payload jsonb NOT NULL,
        actor text NULL,
        occurred_at timestamptz NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL,
        UNIQUE (table_id, event_no)
      )`);
    await queryRunner.query(
      `CREATE INDEX round_events_round_idx ON round_events (round_id, event_no)`,
    );
    await queryRunner.query(`
      CREATE TABLE round_cards (
        id bigserial PRIMARY KEY,
        round_id uuid NULL REFERENCES rounds(id),
        shoe_id uuid NOT NULL REFERENCES shoes(id),
        table_id text NOT NULL REFERENCES studio_tables(id),
        slot text NOT NULL,
        card text NOT NULL,
        reading_id bigint NULL,
        face_down boolean NOT NULL,
        dealt_at timestamptz NOT NULL,
        revealed_at timestamptz NULL,
        corrected_by_id bigint NULL REFERENCES round_cards(id),
        correction_reason text NULL
      )`);
    await queryRunner.query(`CREATE INDEX round_cards_round_idx ON round_cards (round_id, id)`);
    await queryRunner.query(`
      CREATE TABLE bets (
        id text PRIMARY KEY,
        round_id uuid NOT NULL REFERENCES rounds(id),
        table_id text NOT NULL REFERENCES studio_tables(id),
        player_id text NOT NULL,
        command_id text NULL,
        bet_type text NOT NULL,
        spot text NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        deducted bigint NOT NULL CHECK (deducted >= amount),
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('accepted', 'settled', 'refunded')),
        placed_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX bets_round_idx ON bets (round_id)`);
    await queryRunner.query(`CREATE INDEX bets_player_idx ON bets (player_id, placed_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE decisions (
        id bigserial PRIMARY KEY,
        round_id uuid NOT NULL REFERENCES rounds(id),
        player_id text NOT NULL,
        hand text NULL,
        action text NOT NULL,
        automatic boolean NOT NULL,
        command_id text NULL,
        decided_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX decisions_round_idx ON decisions (round_id, id)`);
    await queryRunner.query(`
      CREATE TABLE settlements (
        id bigserial PRIMARY KEY,
        round_id uuid NOT NULL REFERENCES rounds(id),
        -- The bet this settles; insurance taken mid-round has no bet row of its own.
        bet_id text NULL,
        player_id text NOT NULL,
        bet_type text NOT NULL,
        spot text NULL,
        stake bigint NOT NULL,
        returned bigint NOT NULL CHECK (returned >= 0),
        net bigint NOT NULL,
        outcome text NOT NULL,
        rounded_down text NOT NULL DEFAULT '0',
        settled_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX settlements_round_idx ON settlements (round_id)`);
    await queryRunner.query(
      `CREATE INDEX settlements_player_idx ON settlements (player_id, settled_at DESC)`,
    );
    await queryRunner.query(`
      CREATE TABLE supervisor_actions (
        id bigserial PRIMARY KEY,
        table_id text NOT NULL REFERENCES studio_tables(id),
        round_id uuid NULL REFERENCES rounds(id),
        action text NOT NULL,
        reason text NULL,
        actor_user_id uuid NULL REFERENCES users(id),
        actor_name text NOT NULL,
        status text NOT NULL CHECK (status IN ('applied', 'pending-approval', 'refused')),
        approved_by_user_id uuid NULL REFERENCES users(id),
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX supervisor_actions_table_idx ON supervisor_actions (table_id, created_at DESC)`,
    );
    // Idempotency: a command id is applied once; a repeat gets the stored answer.
    await queryRunner.query(`
      CREATE TABLE processed_commands (
        command_id text PRIMARY KEY,
        table_id text NULL,
        kind text NOT NULL,
        result jsonb NOT NULL,
        received_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'processed_commands',
      'supervisor_actions',
      'settlements',
      'decisions',
      'bets',
      'round_cards',
      'round_events',
      'table_state',
      'rounds',
      'shoes',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
