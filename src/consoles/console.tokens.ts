import type { OutboxLag } from '../outbox/outbox-relay';

/** The DataSource's query function, for the consoles' read-only queries. */
export const CONSOLE_QUERY = Symbol('CONSOLE_QUERY');

/** The outbox relay's lag (the figure /metrics and /health/ready report), for the supervisors. */
export abstract class ConsoleOutboxLag {
  abstract lag(): Promise<OutboxLag & { publishing: 'on' | 'off' }>;
}
