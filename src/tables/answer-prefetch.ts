import type { CommandRecord } from './ports';

type Answers = Map<string, Record<string, unknown>>;

/** Stored answers looked up ahead of a batch, and the answers committed here since. */
interface Prefetch {
  ids: ReadonlySet<string>;
  lookup: Promise<Answers>;
  since: Answers;
}

/** Lookups kept for batches not submitted yet (the intake prefetches one chunk ahead). */
const MAX_PREFETCHED = 4;

/**
 * The stored answers of commands about to be submitted (the intake's next chunk, looked up while
 * this one commits), so their batch need not wait for the lookup. The batch that takes one adds
 * the answers this table committed after the lookup began; none is used after a failed commit.
 */
export class AnswerPrefetch {
  /** Oldest first. */
  private prefetched: Prefetch[] = [];

  constructor(private readonly find: (ids: readonly string[]) => Promise<Answers>) {}

  start(commandIds: readonly string[]): void {
    if (commandIds.length === 0) return;
    const lookup = this.find(commandIds);
    lookup.catch(() => undefined); // the batch that takes it sees the failure
    this.prefetched.push({ ids: new Set(commandIds), lookup, since: new Map() });
    if (this.prefetched.length > MAX_PREFETCHED) this.prefetched.shift();
  }

  /** A lookup covering these ids (older ones are dropped) with what committed since, if any. */
  take(ids: readonly string[]): Promise<Answers> | undefined {
    const at = this.prefetched.findIndex((p) => ids.every((id) => p.ids.has(id)));
    if (at < 0) return undefined;
    const [taken] = this.prefetched.splice(0, at + 1).slice(-1);
    return taken.lookup.then((found) => {
      // Only this batch's ids: any other answer would make its step be taken again for nothing.
      for (const id of ids) {
        const result = taken.since.get(id);
        if (result && !found.has(id)) found.set(id, result);
      }
      return found;
    });
  }

  /** Committed answers, for the lookups made before they were committed. */
  answered(records: readonly CommandRecord[]): void {
    for (const p of this.prefetched) {
      for (const r of records) if (!p.since.has(r.commandId)) p.since.set(r.commandId, r.result);
    }
  }

  /**
   * A commit failed: it may have committed all the same (a connection lost at COMMIT), which a
   * lookup made before cannot tell, so none is used.
   */
  clear(): void {
    this.prefetched = [];
  }
}
