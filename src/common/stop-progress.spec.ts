import { stopCutAfterMs, StopProgress, stopCutShortLine } from './stop-progress';

describe('StopProgress', () => {
  const steps = ['hand the tables over', 'release the tables', 'close the database pool'];

  it('says every planned step before the stop starts, then the one under way and those after it', () => {
    let now = 1_000;
    const progress = new StopProgress(steps, () => now);
    expect(progress.unfinished()).toEqual(steps);
    progress.enter('hand the tables over');
    progress.enter('release the tables');
    now += 2_340;
    expect(progress.unfinished()).toEqual([
      'release the tables (under way for 2.3 s)',
      'close the database pool',
    ]);
    progress.finished();
    expect(progress.unfinished()).toEqual([]);
  });

  it('runs a step as entered, and places a step it was not told of after the one under way', async () => {
    const progress = new StopProgress(steps, () => 0);
    expect(await progress.run('hand the tables over', async () => 'handed')).toBe('handed');
    progress.enter('leave the Kafka group');
    expect(progress.unfinished()).toEqual([
      'leave the Kafka group (under way for 0.0 s)',
      'release the tables',
      'close the database pool',
    ]);
    progress.enter('close the database pool');
    expect(progress.unfinished()).toEqual(['close the database pool (under way for 0.0 s)']);
  });
});

describe('the stop budget', () => {
  it('cuts a stop short before SHUTDOWN_TIMEOUT_MS, keeping a tenth of it (1 s at most) to exit', () => {
    expect(stopCutAfterMs(10_000)).toBe(9_000);
    expect(stopCutAfterMs(60_000)).toBe(59_000);
    expect(stopCutAfterMs(100)).toBe(90);
  });

  it('says in one line how long the stop took and what it did not finish', () => {
    expect(
      stopCutShortLine('SIGTERM', 9_004, 10_000, [
        'release the tables (under way for 6.2 s)',
        'close the database pool',
      ]),
    ).toBe(
      'Stop after SIGTERM cut short after 9.0 s (SHUTDOWN_TIMEOUT_MS=10000); not finished: release the tables (under way for 6.2 s); close the database pool; exiting 1',
    );
    expect(stopCutShortLine('SIGINT', 90, 100, [])).toMatch(/not finished: nothing/);
  });
});
