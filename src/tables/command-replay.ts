import { commandIdOfKey } from '../common/player-key';
import type { CommandMeta, CommandResult } from '../use-cases/common/tables.port';
import type { CommandRecord } from './ports';

/**
 * A command id is the platform's idempotency key: a repeat of the command gets its first answer
 * (`duplicate: true`). The same id on a different command (another player, amount or action) is a
 * platform defect, and answering it with the first command's answer would tell the platform that
 * a bet it never placed was accepted; it is refused instead (`command-id-reused`), and the first
 * command stays the one on record. Answers stored before fingerprints existed replay as before.
 */
export const COMMAND_ID_REUSED = 'command-id-reused';

/** The record of a command's first answer, with what the command asked (its fingerprint). */
export function commandRecord(commandId: string, meta: CommandMeta, result: CommandResult) {
  // Object.assign, not a spread then a property: V8 adds one to a spread copy slowly.
  const stored = meta.fingerprint
    ? Object.assign({}, result, { fingerprint: meta.fingerprint })
    : result;
  return {
    commandId,
    kind: meta.kind,
    result: stored as Record<string, unknown>,
  } satisfies CommandRecord;
}

/** The answer to a command whose id was answered before (stored with commandRecord). */
export function replayStored(stored: Record<string, unknown>, meta: CommandMeta): CommandResult {
  const { fingerprint, ...answer } = stored;
  if (typeof fingerprint === 'string' && meta.fingerprint && fingerprint !== meta.fingerprint) {
    return reused(meta);
  }
  return { ...(answer as CommandResult), duplicate: true };
}

/** The answer to a command repeated within one batch, given its first occurrence's. */
export function replayRepeat(
  first: CommandResult,
  firstMeta: CommandMeta,
  meta: CommandMeta,
): CommandResult {
  if (firstMeta.fingerprint && meta.fingerprint && firstMeta.fingerprint !== meta.fingerprint) {
    return reused(meta);
  }
  return { ...first, duplicate: true };
}

function reused(meta: CommandMeta): CommandResult {
  return {
    accepted: false,
    code: COMMAND_ID_REUSED,
    message:
      `Command id ${commandIdOfKey(meta.commandId ?? '')} was used before for a different command: a repeat must be ` +
      `identical, a new command needs a new id`,
  };
}
