import type { BatchItem, CommandResult } from '../use-cases/common/tables.port';

/** Applies a batch of a table's commands in one go (TableRuntime.submitBatch). */
export type ApplyBatch = (items: readonly BatchItem[]) => Promise<CommandResult[]>;

interface Waiting {
  items: readonly BatchItem[];
  resolve(results: CommandResult[]): void;
  reject(error: unknown): void;
}

/** The most commands one transaction takes from the queue (a Kafka chunk larger goes alone). */
export const MAX_GROUP = 5_000;

/**
 * A table's one intake for platform commands, whichever way they came (HTTP requests, Kafka
 * chunks, the inbox of commands other instances read): group commit across callers. A command
 * that finds the table idle is applied at once; those that arrive while a batch is in flight wait
 * for it (the wait is bounded by one transaction) and are then applied together, in arrival
 * order, in one transaction of up to MAX_GROUP commands. Each caller gets its own answers as soon
 * as its batch commits. When a group fails because of what a command carries, its callers are
 * applied again one by one, so the failure reaches only the caller whose command caused it; an
 * outage fails every caller of the group at once.
 */
export class CommandQueue {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly apply: ApplyBatch,
    private readonly maxGroup = MAX_GROUP,
  ) {}

  submit(items: readonly BatchItem[]): Promise<CommandResult[]> {
    if (items.length === 0) return Promise.resolve([]);
    const answered = new Promise<CommandResult[]>((resolve, reject) =>
      this.waiting.push({ items, resolve, reject }),
    );
    if (!this.running) void this.pump();
    return answered;
  }

  private async pump(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) await this.applyGroup(this.takeGroup());
    } finally {
      this.running = false;
    }
  }

  /** The callers waiting longest, up to maxGroup commands (at least one caller). */
  private takeGroup(): Waiting[] {
    let count = this.waiting[0].items.length;
    let end = 1;
    while (end < this.waiting.length && count + this.waiting[end].items.length <= this.maxGroup) {
      count += this.waiting[end].items.length;
      end += 1;
    }
    return this.waiting.splice(0, end);
  }

  private async applyGroup(group: readonly Waiting[]): Promise<void> {
    if (group.length === 1) return this.applyAlone(group[0]);
    let results: CommandResult[];
    try {
      results = await this.apply(group.flatMap((w) => w.items));
    } catch (error) {
      if (isCommandSpecificFailure(error)) {
        for (const waiting of group) await this.applyAlone(waiting);
      } else for (const waiting of group) waiting.reject(error);
      return;
    }
    let at = 0;
    for (const waiting of group) {
      waiting.resolve(results.slice(at, at + waiting.items.length));
      at += waiting.items.length;
    }
  }

  private async applyAlone(waiting: Waiting): Promise<void> {
    try {
      waiting.resolve(await this.apply(waiting.items));
    } catch (error) {
      waiting.reject(error);
    }
  }
}

/**
 * True for a failure caused by the commands themselves: PostgreSQL data exceptions (class 22, e.g.
 * a NUL in a text value) and integrity violations (class 23), or a programming error their input
 * triggered. Connection errors, timeouts, lost leases and version conflicts are not: retrying the
 * commands later is right for those.
 */
export function isCommandSpecificFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  return error instanceof TypeError || error instanceof RangeError;
}
