import { CommandIntakeStatus } from '../platform/command-intake-starter';
import { commandIntakeCheck, runReadiness } from './readiness';

describe('commandIntakeCheck', () => {
  function readinessOf(state: CommandIntakeStatus) {
    return runReadiness([commandIntakeCheck(state)]);
  }

  it('is not ready before the starter is attached, nor while it waits for Kafka', async () => {
    const status = new CommandIntakeStatus();
    expect(await readinessOf(status)).toEqual({
      status: 'error',
      checks: { commandIntake: { status: 'error', message: 'The command intake is starting' } },
    });
    status.attach({
      status: 'waiting-for-kafka',
      lastError: 'connect ECONNREFUSED 127.0.0.1:9092',
    });
    expect((await readinessOf(status)).checks.commandIntake).toEqual({
      status: 'error',
      message: 'The command intake waits for Kafka: connect ECONNREFUSED 127.0.0.1:9092',
    });
  });

  it('is ready while the intake runs, and not once it has stopped', async () => {
    const status = new CommandIntakeStatus();
    const starter = { status: 'running' as const, lastError: undefined };
    status.attach(starter);
    expect(await readinessOf(status)).toEqual({
      status: 'ok',
      checks: { commandIntake: { status: 'ok' } },
    });
    status.attach({ status: 'stopped', lastError: undefined });
    expect((await readinessOf(status)).status).toBe('error');
  });
});
