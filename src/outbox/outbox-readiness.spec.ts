import { boundedCheck } from '../health/readiness';
import type { EventPublisher } from './event-publisher';
import type { OutboxRelay } from './outbox-relay';
import { kafkaCheck } from './outbox-readiness';

type Status = ReturnType<EventPublisher['status']>;

function check(status: Partial<Status>, lag: () => Promise<unknown>) {
  const publisher = { status: () => status } as unknown as EventPublisher;
  const relay = { lag } as unknown as OutboxRelay;
  return kafkaCheck(publisher, relay, 50);
}

const hung = () => new Promise<never>(() => undefined);

describe('kafkaCheck', () => {
  it('says Kafka is off, not in error, when the database hangs under the outbox lag read', async () => {
    const result = await boundedCheck(check({ enabled: false }, hung), 600);
    expect(result.status).toBe('disabled');
    expect(result.outbox).toBe('unknown: no answer within 50 ms');
  });

  it('says a connected Kafka is fine while the database does not answer', async () => {
    const result = await boundedCheck(check({ enabled: true, connected: true }, hung), 600);
    expect(result.status).toBe('ok');
  });

  it('says a failed lag read as such, and the lag when it comes', async () => {
    const failed = await check({ enabled: true, connected: true }, () =>
      Promise.reject(new Error('Connection terminated')),
    ).check();
    expect(failed).toEqual({ status: 'ok', outbox: 'unknown: Connection terminated' });
    const lag = { pending: 3 };
    const fine = await check({ enabled: false }, () => Promise.resolve(lag)).check();
    expect(fine.outbox).toBe(lag);
  });
});
