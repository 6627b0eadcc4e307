/**
 * The steps of a start-up and the one under way, and whether the start-up was told to stop (a
 * SIGTERM while starting, or STARTUP_TIMEOUT_MS run out): the start-up then starts nothing more,
 * abandons a wait that holds nothing (connecting, waiting for the migration lock), lets the step
 * that changes things finish (migrating, the embedded database), and closes what it had opened.
 */
export const START_STEPS = {
  port: 'opening the HTTP port',
  embedded: 'starting the embedded database',
  database: 'connecting to the database',
  migrationLock: 'taking the migration lock',
  migrationLockWait: 'waiting for the migration lock held by another instance',
  migrating: 'migrating',
  application: 'starting the application (registering the tables, taking their leases)',
  listening: 'opening the HTTP port to requests',
} as const;

/** Why a start-up stopped before it had started: thrown where it stopped, caught by main.ts. */
export class StartStopped extends Error {
  constructor(readonly why: string) {
    super(`start-up stopped (${why})`);
    this.name = 'StartStopped';
  }
}

export class StartProgress {
  private step: string = START_STEPS.port;
  private detail = '';
  private enteredAt: number;
  private readonly abort = new AbortController();
  private readonly listeners: Array<(step: string, detail: string) => void> = [];
  /** What the stop of an application already created has not finished (bootstrap sets it). */
  unfinishedStop: () => string[] = () => [];

  constructor(private readonly now: () => number = () => performance.now()) {
    this.enteredAt = now();
  }

  /** Enters a step (`detail`, if any, is said with it: who holds the lock, which database). */
  enter(step: string, detail = ''): void {
    if (step === this.step && detail === this.detail) return;
    this.step = step;
    this.detail = detail;
    this.enteredAt = this.now();
    for (const listener of this.listeners) listener(step, detail);
  }

  onEnter(listener: (step: string, detail: string) => void): void {
    this.listeners.push(listener);
  }

  /** The step under way, its detail and how long it has been under way. */
  underWay(): string {
    const waited = ((this.now() - this.enteredAt) / 1000).toFixed(1);
    return `${this.step}${this.detail ? ` (${this.detail})` : ''}, under way for ${waited} s`;
  }

  get current(): string {
    return this.step;
  }

  /** Tells the start-up to stop: nothing more is started. */
  stop(why: string): void {
    if (!this.abort.signal.aborted) this.abort.abort(new StartStopped(why));
  }

  get stopped(): StartStopped | undefined {
    return this.abort.signal.aborted ? (this.abort.signal.reason as StartStopped) : undefined;
  }

  /** Aborted when the start-up is told to stop. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Between steps: throws StartStopped once the start-up was told to stop. */
  throwIfStopped(): void {
    this.abort.signal.throwIfAborted();
  }

  /**
   * Waits for `work`, unless the start-up is told to stop while `abandonable()` (the wait holds
   * nothing a stop must undo): then rejects with StartStopped at once (the work is left behind; the
   * process exits soon after and the server ends its session).
   */
  until<T>(work: Promise<T>, abandonable: () => boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const signal = this.abort.signal;
      const onStop = () => {
        if (abandonable()) reject(signal.reason);
      };
      signal.addEventListener('abort', onStop, { once: true });
      if (signal.aborted) onStop();
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onStop));
    });
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/** The line of a start-up stopped by a signal that went no further and closed what it had opened: exit 0. */
export function startStoppedLine(why: string, elapsedMs: number, underWay: string): string {
  return `Stopped on ${why} while starting, in step: ${underWay}; the start-up went no further and closed what it had opened (${seconds(elapsedMs)} s); exiting 0`;
}

/** The line of a start-up stopped by a signal whose stop ran out of SHUTDOWN_TIMEOUT_MS: exit 1. */
export function startStopCutShortLine(
  why: string,
  elapsedMs: number,
  budgetMs: number,
  underWay: string,
  unfinishedStop: readonly string[],
): string {
  const left = unfinishedStop.length > 0 ? `; not finished: ${unfinishedStop.join('; ')}` : '';
  return `Stopped on ${why} while starting, in step: ${underWay}; the stop was cut short after ${seconds(elapsedMs)} s (SHUTDOWN_TIMEOUT_MS=${budgetMs})${left}; exiting 1`;
}

/** The line of a start-up that did not finish within STARTUP_TIMEOUT_MS: exit 1. */
export function startTimedOutLine(limitMs: number, underWay: string, cutShort: boolean): string {
  return `Start-up failed: not started within STARTUP_TIMEOUT_MS=${limitMs} (${seconds(limitMs)} s); still ${underWay}${cutShort ? '; closing what was open was cut short' : ''}; exiting 1`;
}

/** The log line said while a start-up waits: how long it has been starting and for what. */
export function stillStartingLine(elapsedMs: number, underWay: string, limitMs: number): string {
  return `Still starting after ${seconds(elapsedMs)} s: ${underWay} (gives up at STARTUP_TIMEOUT_MS=${limitMs})`;
}
