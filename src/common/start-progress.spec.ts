import {
  START_STEPS,
  StartProgress,
  StartStopped,
  startStopCutShortLine,
  startStoppedLine,
  startTimedOutLine,
  stillStartingLine,
} from './start-progress';

describe('StartProgress', () => {
  it('says the step under way, its detail and for how long, and tells each new step once', () => {
    let now = 1_000;
    const progress = new StartProgress(() => now);
    const told: string[] = [];
    progress.onEnter((step, detail) => told.push(`${step}|${detail}`));
    progress.enter(START_STEPS.database, 'PostgreSQL at db:5432');
    now += 2_340;
    expect(progress.underWay()).toBe(
      'connecting to the database (PostgreSQL at db:5432), under way for 2.3 s',
    );
    progress.enter(START_STEPS.migrationLockWait, '"studio:b", backend pid 7');
    progress.enter(START_STEPS.migrationLockWait, '"studio:b", backend pid 7');
    expect(progress.current).toBe(START_STEPS.migrationLockWait);
    expect(progress.underWay()).toBe(
      'waiting for the migration lock held by another instance ("studio:b", backend pid 7), under way for 0.0 s',
    );
    expect(told).toEqual([
      'connecting to the database|PostgreSQL at db:5432',
      'waiting for the migration lock held by another instance|"studio:b", backend pid 7',
    ]);
  });

  it('throws StartStopped between steps once told to stop, keeping the first reason', () => {
    const progress = new StartProgress();
    expect(() => progress.throwIfStopped()).not.toThrow();
    expect(progress.stopped).toBeUndefined();
    progress.stop('SIGTERM');
    progress.stop('STARTUP_TIMEOUT_MS');
    expect(progress.stopped).toBeInstanceOf(StartStopped);
    expect(progress.stopped?.why).toBe('SIGTERM');
    expect(() => progress.throwIfStopped()).toThrow(StartStopped);
    expect(progress.signal.aborted).toBe(true);
  });

  it('abandons a wait that holds nothing the moment it is told to stop', async () => {
    const progress = new StartProgress();
    const waiting = progress.until(new Promise<string>(() => undefined), () => true);
    progress.stop('SIGTERM');
    await expect(waiting).rejects.toBeInstanceOf(StartStopped);
    // Already stopped when the wait begins: abandoned at once too.
    await expect(
      progress.until(new Promise<string>(() => undefined), () => true),
    ).rejects.toBeInstanceOf(StartStopped);
  });

  it('lets a step that changes things (migrating) finish when told to stop during it', async () => {
    const progress = new StartProgress();
    let finish!: (value: string) => void;
    const migrating = true;
    const work = progress.until(
      new Promise<string>((resolve) => (finish = resolve)),
      () => !migrating,
    );
    progress.stop('SIGTERM');
    finish('migrated');
    await expect(work).resolves.toBe('migrated');
  });

  it('passes the work’s own failure through', async () => {
    const progress = new StartProgress();
    await expect(progress.until(Promise.reject(new Error('refused')), () => true)).rejects.toThrow(
      'refused',
    );
  });
});

describe('the lines of a start-up that stopped', () => {
  it('says the signal, the step it was in and exit 0 when it went no further', () => {
    expect(
      startStoppedLine('SIGTERM', 120, 'connecting to the database, under way for 4.2 s'),
    ).toBe(
      'Stopped on SIGTERM while starting, in step: connecting to the database, under way for 4.2 s; the start-up went no further and closed what it had opened (0.1 s); exiting 0',
    );
  });

  it('says what the stop did not finish and exit 1 when SHUTDOWN_TIMEOUT_MS cut it short', () => {
    expect(
      startStopCutShortLine('SIGINT', 9_012, 10_000, 'migrating, under way for 12.0 s', [
        'close the database pool (under way for 9.0 s)',
      ]),
    ).toBe(
      'Stopped on SIGINT while starting, in step: migrating, under way for 12.0 s; the stop was cut short after 9.0 s (SHUTDOWN_TIMEOUT_MS=10000); not finished: close the database pool (under way for 9.0 s); exiting 1',
    );
    expect(startStopCutShortLine('SIGTERM', 900, 1_000, 'migrating, under way for 1.0 s', [])).toBe(
      'Stopped on SIGTERM while starting, in step: migrating, under way for 1.0 s; the stop was cut short after 0.9 s (SHUTDOWN_TIMEOUT_MS=1000); exiting 1',
    );
  });

  it('says STARTUP_TIMEOUT_MS and the step it still waited in, exit 1', () => {
    const step = 'waiting for the migration lock held by another instance, under way for 290.0 s';
    expect(startTimedOutLine(300_000, step, false)).toBe(
      `Start-up failed: not started within STARTUP_TIMEOUT_MS=300000 (300.0 s); still ${step}; exiting 1`,
    );
    expect(startTimedOutLine(300_000, step, true)).toMatch(
      /; closing what was open was cut short; exiting 1$/,
    );
    expect(stillStartingLine(20_040, step, 300_000)).toBe(
      `Still starting after 20.0 s: ${step} (gives up at STARTUP_TIMEOUT_MS=300000)`,
    );
  });
});
