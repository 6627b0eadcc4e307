import type { Logger } from '@nestjs/common';
import type { Clock } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { TableInput, TableState } from '../table-core/table-machine';
import type { WindowCatchUp } from './command-catch-up';
import { COMMAND_WINDOW_TIMERS } from './command-window-hold';

/** How often a held window looks whether its hold is over. */
const HOLD_RECHECK_MS = 250;
/** A wait for the consumer group shorter than this is not worth a log line. */
const CATCH_UP_LOGGED_MS = 200;

/**
 * A table's scheduled callbacks: one per deadline of its committed state (betting and decision
 * windows, round intervals), and a one-second tick while a missing card is being rescanned.
 * Each fires by submitting its input to the table's queue.
 */
export class TableTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Timers whose window a CommandWindowHold keeps open (said once in the log). */
  private readonly held = new Set<string>();
  /** Timers due whose window waits for the consumer group to catch up (CommandCatchUp). */
  private readonly catchingUp = new Set<string>();
  private tickTimer?: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly submit: (input: TableInput) => Promise<unknown>,
    private readonly state: () => TableState,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Until when (epoch ms) command windows stay open past their deadline (CommandWindowHold). */
    private readonly windowsHeldUntil: () => number = () => 0,
    /** After a join: a command window closes once the group has applied what was sent before. */
    private readonly catchUp?: WindowCatchUp,
  ) {}

  /** The rescan tick: taken while a slot's first failure is not escalated yet. */
  startTicking(): void {
    this.tickTimer = setInterval(() => {
      const slot = this.state().ingestion.slot;
      if (slot?.firstFailureAt != null && !slot.escalated) {
        // A tick that cannot be committed (the database is away) is simply taken again next second.
        this.submit({ type: 'tick' }).catch(() => undefined);
      }
    }, 1000);
  }

  stop(): void {
    this.closing = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    for (const handle of this.timers.values()) clearTimeout(handle);
    this.timers.clear();
    this.held.clear();
    this.catchingUp.clear();
  }

  /** Makes the scheduled callbacks match the deadlines in the committed state. */
  reconcile(): void {
    if (this.closing) return;
    const wanted = new Map(this.state().timers.map((t) => [`${t.name}:${t.token}`, t]));
    for (const [key, handle] of this.timers) {
      if (!wanted.has(key)) {
        clearTimeout(handle);
        this.timers.delete(key);
        this.held.delete(key);
      }
    }
    for (const key of this.catchingUp) if (!wanted.has(key)) this.catchingUp.delete(key);
    for (const [key, timer] of wanted) {
      if (this.timers.has(key) || this.catchingUp.has(key)) continue;
      const delay = Math.max(0, timer.dueAt - this.clock.now().getTime());
      this.timers.set(
        key,
        setTimeout(() => this.fire(key, timer), delay),
      );
    }
  }

  /** A timer due: a command window may stay open first (CommandWindowHold, CommandCatchUp). */
  private fire(key: string, timer: { name: string; token: number }): void {
    this.timers.delete(key);
    const commandWindow = COMMAND_WINDOW_TIMERS.has(timer.name);
    const heldMs = commandWindow ? this.windowsHeldUntil() - this.clock.now().getTime() : 0;
    if (heldMs > 0) {
      if (!this.held.has(key)) {
        this.held.add(key);
        this.logger.log(
          `The ${timer.name} window stays open up to ${heldMs} ms longer: commands sent in time may still be on their way (the command consumers rebalance, an instance is gone, the table was just taken over, or the intake waits for the database)`,
        );
      }
      // Looked at again soon: a rebalance that ends early ends the hold early.
      this.timers.set(
        key,
        setTimeout(() => this.fire(key, timer), Math.min(heldMs, HOLD_RECHECK_MS)),
      );
      return;
    }
    this.held.delete(key);
    if (commandWindow && this.catchUp?.pending()) {
      this.waitForCatchUp(key, timer, this.catchUp);
      return;
    }
    this.close(key, timer);
  }

  /** The window closes once the group has applied the commands sent before its deadline. */
  private waitForCatchUp(
    key: string,
    timer: { name: string; token: number },
    catchUp: WindowCatchUp,
  ): void {
    this.catchingUp.add(key);
    const since = this.clock.now().getTime();
    void catchUp.wait().then(() => {
      // Stopped, or the window already ended otherwise (the state no longer holds this timer).
      if (!this.catchingUp.delete(key) || this.closing) return;
      const waitedMs = this.clock.now().getTime() - since;
      if (waitedMs >= CATCH_UP_LOGGED_MS) {
        this.logger.log(
          `The ${timer.name} window stayed open ${waitedMs} ms longer: the command consumers, just rebalanced, were still applying commands sent before it closed`,
        );
      }
      this.close(key, timer);
    });
  }

  /**
   * A timer whose transition cannot be committed (the database is away) is tried again a second
   * later while the state still holds it: a betting window must close once the database is back.
   */
  private close(key: string, timer: { name: string; token: number }): void {
    this.submit({ type: 'timer', name: timer.name, token: timer.token }).catch((error) => {
      this.logger.error(`Timer ${timer.name} failed, retrying in 1 s: ${oneLine(error)}`);
      const stillWanted = this.state().timers.some(
        (t) => t.name === timer.name && t.token === timer.token,
      );
      if (this.closing || this.timers.has(key) || !stillWanted) return;
      this.timers.set(
        key,
        setTimeout(() => this.fire(key, timer), 1_000),
      );
    });
  }
}
