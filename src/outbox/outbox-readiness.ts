import type { ReadinessCheck } from '../health/readiness';
import type { EventPublisher } from './event-publisher';
import type { OutboxRelay } from './outbox-relay';

/** Kafka as the relay sees it: connected or not, with the outbox's backlog and age. */
export function kafkaCheck(publisher: EventPublisher, relay: OutboxRelay): ReadinessCheck {
  return {
    name: 'kafka',
    async check() {
      const status = publisher.status();
      let lag: Awaited<ReturnType<OutboxRelay['lag']>> | undefined;
      try {
        lag = await relay.lag();
      } catch {
        lag = undefined;
      }
      if (!status.enabled) {
        return {
          status: 'disabled',
          message: 'KAFKA_BROKERS is not set: events wait in the outbox',
          outbox: lag,
        };
      }
      if (!status.connected) {
        return {
          status: 'error',
          message: `Kafka not connected${status.lastError ? `: ${status.lastError}` : ''}`,
          outbox: lag,
        };
      }
      return { status: 'ok', outbox: lag };
    },
  };
}
