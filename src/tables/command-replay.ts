import type { CommandRecord } from '../history/writer/processed-commands.repository';

/** How a command is recorded: its id (the idempotency key), its kind, what it asks. */
export interface CommandMeta {
  commandId?: string;
  kind: string;
  /** What the command asks (use-cases/command-fingerprint.ts): a reused id is told apart. */
  fingerprint?: string;
}

/** A command's answer: accepted with what it produced, or refused with a code. */
export type SubmitResult =
  | { accepted: true; reply: Record<string, unknown>; duplicate?: boolean }
  | { accepted: false; code: string; message: string; duplicate?: boolean };

/**
 * A command id is the platform's idempotency key: a repeat of the command gets its first answer
 * (`duplicate: true`). The same id on a different command (another player, amount or action) is a
 * platform defect, and answering it with the first command's answer would tell the platform that
 * a bet it never placed was accepted; it is refused instead (`command-id-reused`), and the first
 * command stays the one on record. Answers stored before fingerprints existed replay as before.
 */
export const COMMAND_ID_REUSED = 'command-id-reused';

/** The record of a command's first answer, with what the command asked (its fingerprint). */
export function commandRecord(commandId: string, meta: CommandMeta, result: SubmitResult) {
  const stored = meta.fingerprint ? { ...result, fingerprint: meta.fingerprint } : result;
  return {
    commandId,
    kind: meta.kind,
    result: stored as Record<string, unknown>,
  } satisfies CommandRecord;
}

/** The answer to a command whose id was answered before (stored with commandRecord). */
export function replayStored(stored: Record<string, unknown>, meta: CommandMeta): SubmitResult {
  const { fingerprint, ...answer } = stored;
  if (typeof fingerprint === 'string' && meta.fingerprint && fingerprint !== meta.fingerprint) {
    return reused(meta);
  }
  return { ...(answer as SubmitResult), duplicate: true };
}

/** The answer to a command repeated within one batch, given its first occurrence's. */
export function replayRepeat(
  first: SubmitResult,
  firstMeta: CommandMeta,
  meta: CommandMeta,
): SubmitResult {
  if (firstMeta.fingerprint && meta.fingerprint && firstMeta.fingerprint !== meta.fingerprint) {
    return reused(meta);
  }
  return { ...first, duplicate: true };
}

function reused(meta: CommandMeta): SubmitResult {
  return {
    accepted: false,
    code: COMMAND_ID_REUSED,
    message:
      `Command id ${meta.commandId} was used before for a different command: a repeat must be ` +
      `identical, a new command needs a new id`,
  };
}
