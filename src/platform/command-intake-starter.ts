import { Logger } from '@nestjs/common';
import { backoffMs } from '../common/backoff';
import { oneLine } from '../common/one-line';

/** What starting the Kafka command intake takes, in order. */
export interface IntakeStartSteps {
  /** Creates the command topics if missing; throws while the brokers cannot be reached. */
  ensureTopics(): Promise<void>;
  /** Joins the consumer group and starts reading (the microservice's listen). */
  listen(): Promise<void>;
  /** Disconnects whatever a failed or abandoned listen left connected. */
  reset(): Promise<void>;
}

export type IntakeStartState = 'starting' | 'waiting-for-kafka' | 'running' | 'stopped';

/**
 * Starts the Kafka command intake at start-up, or, when the brokers cannot be reached then, as
 * soon as they can. A Kafka outage during a restart must not keep the tables from running: their
 * events wait in the outbox (readiness reports Kafka down), HTTP commands are served, and the
 * commands waiting on the topic are read once the intake has started.
 */
export class CommandIntakeStarter {
  private state: IntakeStartState = 'starting';
  private failures = 0;
  private lastFailure?: string;
  private timer?: NodeJS.Timeout;
  private readonly logger = new Logger('CommandIntake');

  constructor(
    private readonly steps: IntakeStartSteps,
    private readonly backoff = { initialMs: 1_000, maxMs: 15_000 },
  ) {}

  get status(): IntakeStartState {
    return this.state;
  }

  /** Why the last try failed, while the intake waits for Kafka. */
  get lastError(): string | undefined {
    return this.state === 'waiting-for-kafka' ? this.lastFailure : undefined;
  }

  /** The first try; resolves when the intake runs or waits for Kafka. Never throws. */
  start(): Promise<void> {
    return this.attempt();
  }

  /** Stops trying (shutdown); an attempt under way disconnects what it connected. */
  stop(): void {
    this.state = 'stopped';
    clearTimeout(this.timer);
  }

  private async attempt(): Promise<void> {
    if (this.stopped()) return;
    try {
      await this.steps.ensureTopics();
      if (this.stopped()) return;
      await this.steps.listen();
    } catch (error) {
      if (this.stopped()) return;
      await this.steps.reset().catch(() => undefined);
      this.retryLater(error);
      return;
    }
    if (this.stopped()) {
      await this.steps.reset().catch(() => undefined);
      return;
    }
    if (this.failures > 0) this.logger.log('Kafka reachable: the command intake has started');
    this.state = 'running';
  }

  /** A method, not a comparison, as stop() may run while an attempt awaits. */
  private stopped(): boolean {
    return this.state === 'stopped';
  }

  private retryLater(error: unknown): void {
    const delay = backoffMs(this.backoff.initialMs, this.backoff.maxMs, this.failures);
    this.failures += 1;
    this.lastFailure = oneLine(error);
    this.state = 'waiting-for-kafka';
    // Once, then every tenth try: an outage of an hour must not flood the log.
    if (this.failures === 1 || this.failures % 10 === 0) {
      this.logger.warn(
        `The command intake cannot start yet (${this.lastFailure}); tables keep running, their ` +
          `events wait in the outbox and HTTP commands are served. Trying again in ${delay} ms ` +
          `(attempt ${this.failures}).`,
      );
    }
    this.timer = setTimeout(() => void this.attempt(), delay);
    this.timer.unref();
  }
}

/**
 * The intake's start-up state where readiness reads it: the starter is made by bootstrap, once the
 * application exists, and attached here.
 */
export class CommandIntakeStatus {
  private starter?: Pick<CommandIntakeStarter, 'status' | 'lastError'>;

  attach(starter: Pick<CommandIntakeStarter, 'status' | 'lastError'>): void {
    this.starter = starter;
  }

  get state(): IntakeStartState {
    return this.starter?.status ?? 'starting';
  }

  get lastError(): string | undefined {
    return this.starter?.lastError;
  }
}
