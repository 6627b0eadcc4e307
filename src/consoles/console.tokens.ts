import type { OutboxLag } from '../outbox/outbox-relay';

/** The outbox relay's lag (the figure /metrics and /health/ready report), for the supervisors. */
export abstract class ConsoleOutboxLag {
  abstract lag(): Promise<OutboxLag & { publishing: 'on' | 'off' }>;
}
