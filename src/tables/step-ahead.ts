import type { ItemResult, MachineOutcome, TableState } from '../table-core/table-machine';
import type { BatchItem } from '../use-cases/common/tables.port';
import { planBatch } from './batch-plan';

/** The machine's step over some commands of a batch, and the time it was computed for. */
export interface GroupStep {
  step: { outcome: MachineOutcome; results: ItemResult[] };
  now: Date;
}

/** Steps the commands at these indexes of `items` from the state `from`. */
export type StepGroup = (
  items: readonly BatchItem[],
  group: readonly number[],
  from: TableState,
) => GroupStep;

/**
 * The next batch's commands (the intake's next chunk, prepared while this one commits), stepped
 * on the state the commit in flight leaves: the machine's work overlaps the database's. That step
 * is only a proposal: its batch takes it only if the commit left exactly that state, so nothing
 * computed on a commit that failed is ever written, answered or announced.
 */
export class StepAhead {
  /** The next batch's commands, waiting for this batch's commit to be under way. */
  private nextItems?: readonly BatchItem[];
  /** The state a batch commit in flight leaves, if it commits. */
  private committing?: TableState;
  /** The next batch's step, computed on `committing` while that commit ran. */
  private stepped?: { base: TableState; items: readonly BatchItem[]; ahead: GroupStep };

  constructor(private readonly stepGroup: StepGroup) {}

  /** The commands of the batch about to be submitted; changes nothing of the table. */
  propose(items: readonly BatchItem[]): void {
    this.nextItems = items;
    if (this.committing) this.stepOn(this.committing);
  }

  /** A batch's last commit, leaving `base` if it commits, is under way until `commit` settles. */
  async during(base: TableState, commit: Promise<void>): Promise<void> {
    this.committing = base;
    this.stepped = undefined;
    // A macrotask: the commit's statement is on its way first.
    if (this.nextItems) setImmediate(() => this.stepOn(base));
    try {
      await commit;
    } finally {
      if (this.committing === base) this.committing = undefined;
    }
  }

  /** The step computed ahead for exactly these items on exactly the state `current`, if any. */
  take(items: readonly BatchItem[], current: TableState): GroupStep | undefined {
    const taken = this.stepped;
    this.stepped = undefined;
    if (this.nextItems?.[0] === items[0]) this.nextItems = undefined;
    if (!taken || taken.base !== current || taken.items.length !== items.length) return undefined;
    return taken.items.every((item, i) => item === items[i]) ? taken.ahead : undefined;
  }

  /** Stopping: nothing more is stepped ahead. */
  stop(): void {
    this.nextItems = undefined;
    this.committing = undefined;
  }

  private stepOn(base: TableState): void {
    const items = this.nextItems;
    if (!items || this.committing !== base) return;
    this.nextItems = undefined;
    const { fresh } = planBatch(items, new Map());
    if (fresh.length === 0) return;
    try {
      this.stepped = { base, items, ahead: this.stepGroup(items, fresh, base) };
    } catch {
      // Stepped by its batch, which sees the error itself.
    }
  }
}
