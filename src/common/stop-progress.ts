/**
 * The steps of a graceful stop, in their order, and the one under way: what a stop cut short by
 * its budget (SHUTDOWN_TIMEOUT_MS) had not finished, for the one line it exits with.
 *
 * Entering a step finishes the one before it; `finished()` ends the last one.
 */
export class StopProgress {
  private readonly steps: string[];
  private current = -1;
  private enteredAt = 0;

  constructor(
    planned: readonly string[],
    private readonly now: () => number = () => performance.now(),
  ) {
    this.steps = [...planned];
  }

  enter(step: string): void {
    let index = this.steps.indexOf(step, Math.max(this.current, 0));
    if (index < 0) {
      // Not planned (or planned earlier): said right after the step under way.
      index = this.current + 1;
      this.steps.splice(index, 0, step);
    }
    this.current = index;
    this.enteredAt = this.now();
  }

  /** Runs one step of the stop (entered now). */
  async run<T>(step: string, work: () => Promise<T>): Promise<T> {
    this.enter(step);
    return work();
  }

  finished(): void {
    this.current = this.steps.length;
  }

  /** The step under way (with how long it has been waiting) and the ones not started yet. */
  unfinished(): string[] {
    if (this.current < 0) return [...this.steps];
    const under = this.steps[this.current];
    if (under === undefined) return [];
    const waited = ((this.now() - this.enteredAt) / 1000).toFixed(1);
    return [`${under} (under way for ${waited} s)`, ...this.steps.slice(this.current + 1)];
  }
}

/**
 * When a stop is cut short: a reserve before SHUTDOWN_TIMEOUT_MS (a tenth of it, 1 s at most) for
 * the last line and the exit, so that the process is gone within its budget even when the event
 * loop runs late (timers fire late on a busy machine) and the service manager's kill never comes.
 */
export function stopCutAfterMs(budgetMs: number): number {
  return budgetMs - Math.min(1_000, Math.floor(budgetMs / 10));
}

/** The one line a stop cut short exits with: how long it took and what it did not finish. */
export function stopCutShortLine(
  why: string,
  elapsedMs: number,
  budgetMs: number,
  unfinished: readonly string[],
): string {
  const elapsed = (elapsedMs / 1000).toFixed(1);
  const left = unfinished.length > 0 ? unfinished.join('; ') : 'nothing (it was exiting)';
  return `Stop after ${why} cut short after ${elapsed} s (SHUTDOWN_TIMEOUT_MS=${budgetMs}); not finished: ${left}; exiting 1`;
}
