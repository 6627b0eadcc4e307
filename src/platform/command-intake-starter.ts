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

/** One way of (re)starting the consumer, and what a failed try of it logs. */
interface StartKind {
  run(): Promise<void>;
  /** Undoes what a failed try left connected (a fresh start only: a restart reuses the consumer). */
  reset?(): Promise<void>;
  waiting(error: string, delay: number, attempt: number): string;
  running: string;
}

/**
 * Starts the Kafka command intake at start-up, or, when the brokers cannot be reached then, as
 * soon as they can; and starts the consumer again when kafkajs leaves it stopped while running.
 * A Kafka outage must not keep the tables from running: their events wait in the outbox (readiness
 * reports Kafka down and the intake waiting), HTTP commands are served, and the commands waiting on
 * the topic are read once the intake runs again. One retry loop for both, so readiness says
 * `waiting-for-kafka` whichever way the consumer is away.
 */
export class CommandIntakeStarter {
  private state: IntakeStartState = 'starting';
  private failures = 0;
  private lastFailure?: string;
  private timer?: NodeJS.Timeout;
  private readonly logger = new Logger('CommandIntake');
  private readonly fresh: StartKind;

  constructor(
    private readonly steps: IntakeStartSteps,
    private readonly backoff = { initialMs: 1_000, maxMs: 15_000 },
  ) {
    this.fresh = {
      run: async () => {
        await steps.ensureTopics();
        if (!this.stopped()) await steps.listen();
      },
      reset: () => steps.reset(),
      waiting: (error, delay, attempt) =>
        `The command intake cannot start yet (${error}); tables keep running, their events wait ` +
        `in the outbox and HTTP commands are served. Trying again in ${delay} ms (attempt ${attempt}).`,
      running: 'Kafka reachable: the command intake has started',
    };
  }

  get status(): IntakeStartState {
    return this.state;
  }

  /** Why the last try failed, while the intake waits for Kafka. */
  get lastError(): string | undefined {
    return this.state === 'waiting-for-kafka' ? this.lastFailure : undefined;
  }

  /** The first try; resolves when the intake runs or waits for Kafka. Never throws. */
  start(): Promise<void> {
    return this.attempt(this.fresh);
  }

  /**
   * kafkajs left the running consumer stopped (after an error it does not retry): `startAgain`
   * connects and runs it again, tried under the same backoff until it runs.
   */
  consumerStopped(error: unknown, startAgain: () => Promise<void>): void {
    if (this.stopped()) return;
    this.failures = 0;
    this.retryLater(error, {
      run: startAgain,
      waiting: (reason, delay, attempt) =>
        `The command consumer stopped (${reason}); starting it again in ${delay} ms (attempt ${attempt})`,
      running: 'The command consumer runs again',
    });
  }

  /** Stops trying (shutdown); an attempt under way disconnects what it connected. */
  stop(): void {
    this.state = 'stopped';
    clearTimeout(this.timer);
  }

  private async attempt(kind: StartKind): Promise<void> {
    if (this.stopped()) return;
    try {
      await kind.run();
    } catch (error) {
      if (this.stopped()) return;
      await kind.reset?.().catch(() => undefined);
      this.retryLater(error, kind);
      return;
    }
    if (this.stopped()) {
      await kind.reset?.().catch(() => undefined);
      return;
    }
    if (this.failures > 0) this.logger.log(kind.running);
    this.state = 'running';
  }

  /** A method, not a comparison, as stop() may run while an attempt awaits. */
  private stopped(): boolean {
    return this.state === 'stopped';
  }

  private retryLater(error: unknown, kind: StartKind): void {
    const delay = backoffMs(this.backoff.initialMs, this.backoff.maxMs, this.failures);
    this.failures += 1;
    this.lastFailure = oneLine(error);
    this.state = 'waiting-for-kafka';
    // Once, then every tenth try: an outage of an hour must not flood the log.
    if (this.failures === 1 || this.failures % 10 === 0) {
      this.logger.warn(kind.waiting(this.lastFailure, delay, this.failures));
    }
    this.timer = setTimeout(() => void this.attempt(kind), delay);
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
