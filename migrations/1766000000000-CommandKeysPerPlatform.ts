import { MigrationInterface, QueryRunner } from 'typeorm';

/** The platform of an inbox row's command (an HTTP command's fields, a Kafka message's stamp). */
const INBOX_PLATFORM = `COALESCE(command->'command'->>'platformId', command->'message'->>'platformId', 'default')`;

/**
 * A command id is unique only within its platform (src/common/player-key.ts, `commandKey`): two
 * operators that both number their commands 1, 2, 3… must not have each other's bets refused as
 * `command-id-reused`, nor learn which ids the other used. Ids are now stored as command keys, in
 * the form of player keys: a `default` platform's bare id as before, `<platformId>:<commandId>`
 * for the others and for a default id that holds a ":". The unique indexes on the stored id then
 * hold per platform with no new column or index.
 *
 * The bets' and decisions' ids (each accepted command's answer) and the commands waiting in the
 * inbox are rewritten to their keys. The answers kept in `processed_commands` (refusals) name no
 * platform and stay as they were, read from now on as the default platform's: a non-default
 * platform repeating a command refused before this migration has it judged again, and a default
 * command under such an id gets `command-id-reused` (the fingerprints differ), as before it.
 * Non-default platforms came with the release before this one, so few such rows exist.
 */
export class CommandKeysPerPlatform1766000000000 implements MigrationInterface {
  name = 'CommandKeysPerPlatform1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['bets', 'decisions']) {
      await queryRunner.query(
        `UPDATE ${table} SET command_id = platform_id || ':' || command_id
          WHERE command_id IS NOT NULL AND (platform_id <> 'default' OR strpos(command_id, ':') > 0)`,
      );
    }
    await queryRunner.query(
      `UPDATE command_inbox SET command_id = ${INBOX_PLATFORM} || ':' || command_id
        WHERE command->>'kind' IS DISTINCT FROM 'supervision'
          AND (${INBOX_PLATFORM} <> 'default' OR strpos(command_id, ':') > 0)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Back to the bare ids; where two platforms used the same id, the unique index refuses this.
    for (const table of ['bets', 'decisions']) {
      await queryRunner.query(
        `UPDATE ${table} SET command_id = substr(command_id, strpos(command_id, ':') + 1)
          WHERE command_id IS NOT NULL AND (platform_id <> 'default' OR strpos(command_id, ':') > 0)`,
      );
    }
    await queryRunner.query(
      `UPDATE command_inbox SET command_id = substr(command_id, strpos(command_id, ':') + 1)
        WHERE command->>'kind' IS DISTINCT FROM 'supervision'
          AND (${INBOX_PLATFORM} <> 'default' OR strpos(command_id, ':') > 0)`,
    );
  }
}
