import type { BatchItem, CommandResult } from '../use-cases/common/tables.port';
import { replayStored } from './command-replay';

export interface BatchPlan {
  /** The answers known before stepping: stored ones (`duplicate: true`). */
  results: Array<CommandResult | undefined>;
  /** Each command id's first occurrence in the batch. */
  firstOf: Map<string, number>;
  /** The indexes of the commands the machine steps, in order. */
  fresh: number[];
}

/**
 * Which commands of a batch are applied: a command id answered before gets its stored answer
 * (`duplicate: true`); one repeated within the batch is answered from its first occurrence.
 */
export function planBatch(
  items: readonly BatchItem[],
  previous: ReadonlyMap<string, Record<string, unknown>>,
): BatchPlan {
  const results: Array<CommandResult | undefined> = new Array(items.length);
  const firstOf = new Map<string, number>();
  const fresh: number[] = [];
  items.forEach((item, i) => {
    const id = item.meta.commandId;
    const stored = id ? previous.get(id) : undefined;
    if (stored) results[i] = replayStored(stored, item.meta);
    else if (id && firstOf.has(id))
      return; // answered from its first occurrence
    else {
      if (id) firstOf.set(id, i);
      fresh.push(i);
    }
  });
  return { results, firstOf, fresh };
}

/**
 * After a commit of the batch found some of its commands answered before (and wrote nothing):
 * each occurrence of those not answered yet gets its stored answer, and the fresh commands left
 * (from `done` on; the ones before are committed) are those still to step.
 */
export function withoutAnswered(
  items: readonly BatchItem[],
  fresh: readonly number[],
  done: number,
  answered: ReadonlyMap<string, Record<string, unknown>>,
  results: Array<CommandResult | undefined>,
): number[] {
  items.forEach((item, i) => {
    const stored = item.meta.commandId ? answered.get(item.meta.commandId) : undefined;
    if (stored && !results[i]) results[i] = replayStored(stored, item.meta);
  });
  const left = fresh.filter((i, k) => k < done || !results[i]);
  // Answers of no command still to step would step the same commands again, for ever.
  if (left.length === fresh.length) {
    throw new Error('The commit named commands answered before that this batch does not hold');
  }
  return left;
}

/** The answer to anything submitted while this instance lets go of the table. */
export const TABLE_STOPPING: CommandResult = {
  accepted: false,
  code: 'table-stopping',
  message: 'This instance is releasing the table',
};
