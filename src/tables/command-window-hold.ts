import type { Clock } from '../clock/clock';
import { CommandCatchUp } from './command-catch-up';

/** The timers that close a window in which players' commands are awaited. */
export const COMMAND_WINDOW_TIMERS: ReadonlySet<string> = new Set([
  'betting',
  'insurance',
  'decision',
]);

/**
 * Keeps the tables' command windows open while commands sent in time may still be on their way.
 * An instance that dies without leaving the Kafka consumer group leaves its command partitions
 * unread until the group drops it (the consumer's session timeout) and another instance reads
 * them: a bet sent into one of them a moment after the crash would otherwise reach its table after
 * betting closed. So when an instance is found gone, windows that would close within that time
 * close when it is over instead (every table of this instance: any table's commands may be on the
 * dead member's partitions). The same while the group rebalances (an instance left or joined on
 * a rolling restart): no partition is read until it ends. And while the intake cannot apply what
 * it read because the database is away: the windows cannot close then either, but once the
 * database is back a window's timer (tried again every second) would close it before the intake's
 * next try (up to 5 s later) applied the bets sent in time. A window is only ever lengthened.
 */
export class CommandWindowHold {
  private until = 0;
  /** When this instance's command consumer learnt of a rebalance it has not finished. */
  private rebalancingSince?: number;
  /** When the intake last failed to apply a batch because the database was away. */
  private databaseFailedAt?: number;

  /** After a join, windows also wait for the group to apply what was sent before they close. */
  readonly catchUp: CommandCatchUp;

  /** holdMs: the session timeout plus a rebalance and a forward (0: no consumer group, no hold). */
  constructor(
    private readonly clock: Clock,
    readonly holdMs: number,
  ) {
    this.catchUp = new CommandCatchUp(clock, holdMs);
  }

  /** An instance's database session ended: its consumer group member may be dead too. */
  instanceGone(): void {
    if (this.holdMs <= 0) return;
    this.until = Math.max(this.until, this.clock.now().getTime() + this.holdMs);
  }

  /**
   * The consumer group is rebalancing (an instance left or joined), or this instance's consumer is
   * joining it (a start, a restart, a new platform's topic): no partition is read until it ends.
   * Windows stay open meanwhile (at most holdMs), and REJOIN_TAIL_MS after.
   */
  intakeRebalancing(): void {
    if (this.holdMs <= 0) return;
    const now = this.clock.now().getTime();
    // A join that never finished (the brokers went away) does not shorten the next one's hold.
    if (this.rebalancingSince === undefined || now - this.rebalancingSince >= this.holdMs) {
      this.rebalancingSince = now;
    }
  }

  /**
   * The consumer has its partitions again: what waited in them is read, applied and forwarded in
   * the next REJOIN_TAIL_MS. Also after a join this member was not told of (kafkajs rejoins a
   * member the group dropped without a rebalancing event).
   */
  intakeRejoined(): void {
    if (this.holdMs <= 0) return;
    this.rebalancingSince = undefined;
    this.until = Math.max(this.until, this.clock.now().getTime() + REJOIN_TAIL_MS);
    this.catchUp.joined();
  }

  /**
   * The intake could not apply a batch because the database is away (it reads the batch again):
   * windows stay open until it has applied one, at most holdMs after its last failed try.
   */
  intakeWaitsForDatabase(): void {
    if (this.holdMs <= 0) return;
    this.databaseFailedAt = this.clock.now().getTime();
  }

  /** The intake applied a batch: what waited is applied, its answers follow. */
  intakeApplied(): void {
    if (this.databaseFailedAt === undefined) return;
    this.databaseFailedAt = undefined;
    this.until = Math.max(this.until, this.clock.now().getTime() + DATABASE_RETURN_TAIL_MS);
  }

  /** Until when (epoch ms) windows stay open; in the past when nothing is held. */
  heldUntil(): number {
    let until = this.until;
    if (this.rebalancingSince !== undefined)
      until = Math.max(until, this.rebalancingSince + this.holdMs);
    if (this.databaseFailedAt !== undefined)
      until = Math.max(until, this.databaseFailedAt + this.holdMs);
    return until;
  }
}

/**
 * After a join, how long windows stay open for the commands the rebalance held up, and for the
 * first batches of members whose partitions moved (a member that has just started reads them
 * with a cold process and cold connections): a second was short on a loaded machine, then two,
 * then three on a slower one (a bet sent 1.4 s after a join, into a window that closed 3.8 s after
 * it, was answered 4.4 s after it).
 */
const REJOIN_TAIL_MS = 5_000;

/**
 * After the database is back, how long windows stay open for the batch the intake applies then and
 * for its forwards to the tables' owners.
 */
const DATABASE_RETURN_TAIL_MS = 3_000;
