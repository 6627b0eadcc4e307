import { settleWithin } from '../common/settle-within';
import { READINESS_CHECK_TIMEOUT_MS, ReadinessCheck } from '../health/readiness';
import type { EventPublisher } from './event-publisher';
import type { OutboxRelay } from './outbox-relay';

const LATE = Symbol('late');

/**
 * Kafka as the relay sees it: connected or not, with the outbox's backlog and age. The backlog is
 * a database read: one slower than `lagTimeoutMs` (a database that hangs) or failing is reported
 * unknown, so that the check still says Kafka's own state instead of running into the probe's
 * timeout (which turned `kafka` into an error, even with Kafka off, whenever the database hung).
 */
export function kafkaCheck(
  publisher: EventPublisher,
  relay: OutboxRelay,
  lagTimeoutMs = READINESS_CHECK_TIMEOUT_MS - 100,
): ReadinessCheck {
  return {
    name: 'kafka',
    async check() {
      const status = publisher.status();
      let lag: Awaited<ReturnType<OutboxRelay['lag']>> | string;
      try {
        const read = await settleWithin(relay.lag(), lagTimeoutMs, LATE);
        lag = read === LATE ? `unknown: no answer within ${lagTimeoutMs} ms` : read;
      } catch (error) {
        lag = `unknown: ${error instanceof Error ? error.message : String(error)}`;
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
