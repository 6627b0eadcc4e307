import { until } from '../../test/support/until';
import {
  CommandIntakeStarter,
  CommandIntakeStatus,
  IntakeStartSteps,
} from './command-intake-starter';

const BACKOFF = { initialMs: 1, maxMs: 4 };

function steps(ensureFailures: number) {
  const calls = { ensure: 0, listen: 0, reset: 0 };
  let releaseListen: () => void = () => undefined;
  let holdListen = false;
  const s: IntakeStartSteps = {
    ensureTopics: async () => {
      calls.ensure += 1;
      if (calls.ensure <= ensureFailures) throw new Error('connect ECONNREFUSED');
    },
    listen: () => {
      calls.listen += 1;
      return holdListen ? new Promise<void>((r) => (releaseListen = r)) : Promise.resolve();
    },
    reset: async () => {
      calls.reset += 1;
    },
  };
  return {
    s,
    calls,
    hold: () => (holdListen = true),
    release: () => releaseListen(),
  };
}

describe('CommandIntakeStarter', () => {
  it('starts at once when Kafka is reachable', async () => {
    const { s, calls } = steps(0);
    const starter = new CommandIntakeStarter(s, BACKOFF);
    await starter.start();
    expect(starter.status).toBe('running');
    expect(calls).toEqual({ ensure: 1, listen: 1, reset: 0 });
  });

  it('waits for Kafka instead of failing, then starts once', async () => {
    const { s, calls } = steps(3);
    const starter = new CommandIntakeStarter(s, BACKOFF);
    await starter.start();
    expect(starter.status).toBe('waiting-for-kafka');
    expect(starter.lastError).toBe('connect ECONNREFUSED');
    await until(() => starter.status === 'running');
    expect(starter.lastError).toBeUndefined();
    expect(calls).toEqual({ ensure: 4, listen: 1, reset: 3 });
  });

  it('stops trying when the service stops', async () => {
    const { s, calls } = steps(1_000);
    const starter = new CommandIntakeStarter(s, BACKOFF);
    await starter.start();
    starter.stop();
    const tried = calls.ensure;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls.ensure).toBe(tried);
    expect(starter.status).toBe('stopped');
  });

  it('disconnects a listen that completes after the stop', async () => {
    const { s, calls, hold, release } = steps(0);
    hold();
    const starter = new CommandIntakeStarter(s, BACKOFF);
    const starting = starter.start();
    await until(() => calls.listen === 1);
    starter.stop();
    release();
    await starting;
    expect(starter.status).toBe('stopped');
    expect(calls.reset).toBe(1);
  });

  it('starts a consumer kafkajs left stopped again, waiting for Kafka meanwhile', async () => {
    const { s, calls } = steps(0);
    const starter = new CommandIntakeStarter(s, BACKOFF);
    await starter.start();
    let tries = 0;
    starter.consumerStopped(new TypeError('x is undefined'), async () => {
      tries += 1;
      if (tries < 3) throw new Error('connect ECONNREFUSED');
    });
    // Readiness says why while it waits.
    expect(starter.status).toBe('waiting-for-kafka');
    expect(starter.lastError).toBe('x is undefined');
    await until(() => starter.status === 'running');
    expect(tries).toBe(3);
    // The consumer is the same one: nothing is reset, no topic looked at again.
    expect(calls).toEqual({ ensure: 1, listen: 1, reset: 0 });
  });

  it('does not start a stopped consumer again once the service stops', async () => {
    const { s } = steps(0);
    const starter = new CommandIntakeStarter(s, BACKOFF);
    await starter.start();
    let tries = 0;
    starter.stop();
    starter.consumerStopped(new Error('crash'), async () => void (tries += 1));
    await new Promise((r) => setTimeout(r, 30));
    expect(tries).toBe(0);
    expect(starter.status).toBe('stopped');
  });
});

describe('CommandIntakeStatus (where readiness reads the intake)', () => {
  it('says starting until the starter is attached, then what the starter says', () => {
    const status = new CommandIntakeStatus();
    const read = (s: { state: string; lastError?: string }) => ({
      state: s.state,
      lastError: s.lastError,
    });
    expect(read(status)).toEqual({ state: 'starting', lastError: undefined });
    status.attach({
      status: 'waiting-for-kafka',
      lastError: 'connect ECONNREFUSED 127.0.0.1:9092',
    });
    expect(read(status)).toEqual({
      state: 'waiting-for-kafka',
      lastError: 'connect ECONNREFUSED 127.0.0.1:9092',
    });
    status.attach({ status: 'stopped', lastError: undefined });
    expect(read(status).state).toBe('stopped');
  });
});
