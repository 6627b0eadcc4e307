import { hasWrites, type TableWrites } from '../table-core/table-writes';
import type { ChainHead } from './chain-checkpoint.repository';

/** A committed transition as the table runtime announces it. */
export interface TransitionWrites {
  writes: TableWrites;
}

/**
 * A transition that ends a round (completed or voided) is followed by a checkpoint. So is a state
 * taken up after a commit whose answer was lost: it is announced without its writes, which are not
 * at hand, and that commit may have ended a round (the checkpoint is only taken if the chain grew).
 */
export function mayEndRound(outcome: TransitionWrites): boolean {
  return outcome.writes.roundStatus?.ended === true || !hasWrites(outcome.writes);
}

/**
 * When to checkpoint a table: only when its chain head moved since the last checkpoint this
 * instance published, so an idle table adds no events. Pure: the checkpointer asks it and tells it
 * what was published; a failed publication is simply not recorded and is retried next time.
 */
export class CheckpointSchedule {
  private readonly anchored = new Map<string, ChainHead>();

  due(tableId: string, head: ChainHead | undefined): head is ChainHead {
    if (!head) return false;
    const last = this.anchored.get(tableId);
    return !last || last.eventNo !== head.eventNo || last.hash !== head.hash;
  }

  published(tableId: string, head: ChainHead): void {
    this.anchored.set(tableId, head);
  }

  /** A table this instance no longer drives: whoever drives it next anchors it afresh. */
  forget(tableId: string): void {
    this.anchored.delete(tableId);
  }
}
