import { CommandIntakeState, commandIntakeCheck, runReadiness } from './readiness';

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
