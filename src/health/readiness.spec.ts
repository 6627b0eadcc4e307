import {
  boundedCheck,
  CheckResult,
  CommandIntakeState,
  commandIntakeCheck,
  ReadinessCheck,
  runReadiness,
  tablesCheck,
} from './readiness';

describe('commandIntakeCheck', () => {
  function readinessOf(state: CommandIntakeState) {
    return runReadiness([commandIntakeCheck(state)]);
  }

  it('is not ready while the intake starts, nor while it waits for Kafka', async () => {
    expect(await readinessOf({ state: 'starting' })).toEqual({
      status: 'error',
      checks: { commandIntake: { status: 'error', message: 'The command intake is starting' } },
    });
    const waiting = {
      state: 'waiting-for-kafka' as const,
      lastError: 'connect ECONNREFUSED 127.0.0.1:9092',
    };
    expect((await readinessOf(waiting)).checks.commandIntake).toEqual({
      status: 'error',
      message: 'The command intake waits for Kafka: connect ECONNREFUSED 127.0.0.1:9092',
    });
  });

  it('is ready while the intake runs, and not once it has stopped', async () => {
    expect(await readinessOf({ state: 'running' })).toEqual({
      status: 'ok',
      checks: { commandIntake: { status: 'ok' } },
    });
    expect((await readinessOf({ state: 'stopped' })).status).toBe('error');
  });
});

describe('boundedCheck', () => {
  it('answers an error naming the last known result when a check hangs, without starting it again', async () => {
    let calls = 0;
    let answer: ((result: CheckResult) => void) | undefined;
    const check: ReadinessCheck = {
      name: 'database',
      check: () => {
        calls += 1;
        if (calls === 1) return Promise.resolve({ status: 'ok' });
        return new Promise<CheckResult>((resolve) => (answer = resolve)); // hangs
      },
    };
    expect(await boundedCheck(check, 50)).toEqual({ status: 'ok' });
    const hanging = await boundedCheck(check, 50);
    expect(hanging.status).toBe('error');
    expect(hanging.message).toMatch(/^no answer within 50 ms \(last known: ok at .+\)$/);
    // Asked again while the probe still hangs: the same probe is awaited, none is added.
    expect((await boundedCheck(check, 50)).status).toBe('error');
    expect(calls).toBe(2);
    answer!({ status: 'ok' });
    expect(await boundedCheck(check, 50)).toEqual({ status: 'ok' });
    expect(calls).toBe(2);
  });
});

describe('tablesCheck', () => {
  it('shows the tables driven here and the spread over the instances, and stays ok when the spread is unknown', async () => {
    const spread = (distribution: () => Promise<Record<string, number>>) =>
      tablesCheck('studio-a', { ownedTables: ['t-1', 't-2'], distribution });
    expect(await spread(async () => ({ 'studio-a': 2, 'studio-b': 3 })).check()).toEqual({
      status: 'ok',
      instance: 'studio-a',
      driven: ['t-1', 't-2'],
      byInstance: { 'studio-a': 2, 'studio-b': 3 },
    });
    const unknown = await spread(() => Promise.reject(new Error('connection refused'))).check();
    expect(unknown).toMatchObject({ status: 'ok', driven: ['t-1', 't-2'] });
    expect(unknown.message).toBe('the spread is unknown: connection refused');
  });

  it('reports a spread that does not come in time as unknown, and stays ok (readiness not 503)', async () => {
    const slow = tablesCheck(
      'studio-a',
      { ownedTables: ['t-1'], distribution: () => new Promise(() => undefined) },
      20,
    );
    const report = await runReadiness([slow]);
    expect(report.status).toBe('ok');
    expect(report.checks.tables).toMatchObject({
      status: 'ok',
      driven: ['t-1'],
      message: 'the spread is unknown: no answer within 20 ms',
    });
  });
});
