import type { Clock } from '../clock/clock';
import { settleWithin } from '../common/settle-within';

/** A command partition's offsets, by `topic:partition`. */
export type PartitionEnds = ReadonlyMap<string, { start: bigint; end: bigint }>;

/** Where the command consumer group stands (the Kafka intake provides it). */
export interface CommandBacklog {
  /** Each command partition's offsets now: whatever was sent before now lies below `end`. */
  ends(): Promise<PartitionEnds>;
  /** Whether the group has committed every partition up to these ends (its reads applied). */
  consumedTo(ends: PartitionEnds): Promise<boolean>;
}

/** What one table's command windows wait for before they close after a join. */
export interface WindowCatchUp {
  pending(): boolean;
  wait(): Promise<void>;
}

/** The tables' inboxes on this instance: commands other instances forwarded, not yet applied. */
export interface ForwardedCommands {
  /** Whether a table driven here may still have forwarded commands to apply. */
  waiting(tableId: string): boolean;
}

/** How often a waiting window asks whether the group has caught up. */
const POLL_MS = 250;
/** How often it then looks whether the table's inbox has been applied (no round trip). */
const INBOX_POLL_MS = 25;

/**
 * After a join, a command window closes only once the consumer group has applied the commands sent
 * before its deadline. A join moves partitions between members, and a member reads the ones it got
 * at its own pace: one that has just started (a cold process, cold connections) took 3 s for its
 * first batches on a loaded machine, while the tables' fixed hold after the join was already over.
 * The group's committed offsets say exactly how far every member got, whichever instance drives the
 * table, so the window waits until they pass the partitions' ends as of its deadline: the commands
 * sent before it have then been applied, or stored in their table's inbox for its owner. Only for
 * holdMs after this member's last join, and never longer than holdMs per window; when Kafka cannot
 * say (the brokers are away), the window closes as it would have.
 */
export class CommandCatchUp {
  private backlog?: CommandBacklog;
  private forwarded?: ForwardedCommands;
  private joinedAt?: number;

  constructor(
    private readonly clock: Clock,
    private readonly holdMs: number,
  ) {}

  /** The intake's view of the group and of the inboxes (set once its consumer exists). */
  watch(backlog: CommandBacklog, forwarded?: ForwardedCommands): void {
    this.backlog = backlog;
    this.forwarded = forwarded;
  }

  /** What one table's windows wait for. */
  forTable(tableId: string): WindowCatchUp {
    return { pending: () => this.pending(), wait: () => this.wait(tableId) };
  }

  /** This member has (re)joined the group: partitions may have moved between members. */
  joined(): void {
    if (this.holdMs > 0) this.joinedAt = this.clock.now().getTime();
  }

  /** Whether a window closing now first waits for the group (a join less than holdMs ago). */
  pending(): boolean {
    return (
      this.backlog !== undefined &&
      this.joinedAt !== undefined &&
      this.clock.now().getTime() - this.joinedAt < this.holdMs
    );
  }

  /**
   * Resolves once the group has committed past every command partition's end as of now and the
   * table's inbox holds none of what it forwarded, or holdMs later, or as soon as Kafka cannot
   * say. Never rejects.
   */
  async wait(tableId?: string): Promise<void> {
    const backlog = this.backlog;
    if (!backlog) return;
    const giveUpAt = this.clock.now().getTime() + this.holdMs;
    // A question the brokers are slow to answer (kafkajs retries a broker that is away) does not
    // keep the window open past the hold either.
    await settleWithin(this.caughtUp(backlog, giveUpAt, tableId), this.holdMs, undefined);
  }

  private async caughtUp(backlog: CommandBacklog, giveUpAt: number, tableId?: string) {
    try {
      const ends = await backlog.ends();
      while (!(await backlog.consumedTo(ends))) {
        if (this.clock.now().getTime() + POLL_MS > giveUpAt) return;
        await sleep(POLL_MS);
      }
    } catch {
      // The brokers cannot say (an outage): the window closes as it would have without the wait.
      return;
    }
    // A command the group applied by storing it in this table's inbox (it was read by another
    // instance) is applied here once the inbox is drained, which its notification has started.
    while (tableId !== undefined && this.forwarded?.waiting(tableId)) {
      if (this.clock.now().getTime() + INBOX_POLL_MS > giveUpAt) return;
      await sleep(INBOX_POLL_MS);
    }
  }
}

/** A pause on the global timers (jest's fake timers drive them; node:timers/promises they do not). */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
