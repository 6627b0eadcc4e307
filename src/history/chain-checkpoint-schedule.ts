import type { ChainHead } from './chain-checkpoint.repository';

/** The part of a committed transition that says whether it ended a round. */
export interface TransitionWrites {
  writes: { roundStatus?: { ended: boolean } };
}

/** A transition that ends a round (completed or voided) is followed by a checkpoint. */
export function endsRound(outcome: TransitionWrites): boolean {
  return outcome.writes.roundStatus?.ended === true;
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
