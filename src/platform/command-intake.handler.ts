import type { CommandResultMessage } from '@studio/contracts';
import { BeforeApplicationShutdown, Inject, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '../clock/clock';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { CommandAnswersPublisher } from '../kafka/command-answers.publisher';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import type { BatchingKafkaServer, CommandBatchHandler } from './batching-kafka-server';
import type { CommandIntake, IntakeOutcome } from './command-intake';
import type { CommandInbox } from './inbox/command-inbox';
import type { CommandWindowHold } from '../tables/command-window-hold';

/** Reads a batch of command messages, applies them, and publishes their answers and dead letters. */
export class CommandIntakeHandler implements CommandBatchHandler {
  private readonly logger = new Logger('CommandIntake');
  private server?: BatchingKafkaServer;
  /** Set before the consumer closes, so a crashed consumer is not restarted any more. */
  private stopping = false;

  constructor(
    readonly intake: CommandIntake,
    private readonly inbox: CommandInbox,
    private readonly answers: CommandAnswersPublisher,
    private readonly clock: Clock,
    /** Told when the group rebalances and when it is done (absent: nothing held). */
    private readonly windows?: CommandWindowHold,
  ) {}

  /** The consumer this handler serves (stopped first at shutdown). */
  attach(server: BatchingKafkaServer): void {
    this.server = server;
    // After a join, the tables' windows wait for the group to apply what was sent before they close.
    this.windows?.catchUp.watch(server.backlog, this.inbox);
  }

  /** Whether a consumer that crashed may be started again (not once the service stops). */
  get restartable(): boolean {
    return !this.stopping;
  }

  /**
   * Leaves the consumer group with the in-flight batch applied, answered and committed, so the
   * partitions pass to the other instances at once and nothing is read twice.
   */
  async stopConsuming(): Promise<void> {
    this.stopping = true;
    await this.server?.close().catch((error: unknown) => {
      this.logger.warn(`Closing the command consumer failed: ${String(error)}`);
    });
  }

  /** Partitions moved: commands other instances forwarded may wait for tables driven here. */
  rebalanced(): void {
    this.windows?.intakeRejoined();
    this.inbox.rebalanced();
  }

  /** Nothing is read until the group has rebalanced: the tables hold their command windows. */
  rebalancing(): void {
    this.windows?.intakeRebalancing();
  }

  /**
   * Applies the commands (committed when this resolves); their answers are not out yet. Bad input
   * never throws (it is answered or dead-lettered, and the consumer moves on). Only an
   * infrastructure failure (database, broker) throws, so the offsets are not committed and the
   * commands are read again; their command ids then return the stored answers.
   */
  async apply(raws: RawCommandMessage[]): Promise<IntakeOutcome[]> {
    try {
      const outcomes = await this.intake.processBatch(raws);
      this.windows?.intakeApplied();
      return outcomes;
    } catch (error) {
      // Read again once the database is back: the tables' windows wait for it (CommandWindowHold).
      if (isDatabaseUnavailable(error)) this.windows?.intakeWaitsForDatabase();
      throw error;
    }
  }

  /** The next chunk, while this one is applied: parsed, its stored answers looked up. */
  prefetch(raws: RawCommandMessage[]): void {
    this.intake.prefetch(raws);
  }

  /** Publishes the answers and dead letters of applied commands, in their order. */
  async publish(raws: RawCommandMessage[], outcomes: IntakeOutcome[]): Promise<void> {
    const results: CommandResultMessage[] = [];
    const topics: string[] = [];
    outcomes.forEach((o, i) => {
      if (o.kind !== 'answered') return;
      results.push(o.result);
      topics.push(raws[i].topic);
    });
    // Each answer back on its platform's results topic (the topic its command came from).
    await this.answers.publishResults(results, topics);
    for (let i = 0; i < raws.length; i += 1) {
      const outcome = outcomes[i];
      if (outcome.kind !== 'dead-letter') continue;
      const raw = raws[i];
      this.logger.warn(
        `Dead-lettered ${raw.topic}/${raw.partition}@${raw.offset}: ${outcome.code}: ${outcome.reason}`,
      );
      await this.answers.publishDeadLetter(raw, outcome.code, outcome.reason, this.clock.now());
    }
  }
}

/** The consumer leaves before the tables stop; the answers' producer disconnects last. */
export class AnswersLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(CommandAnswersPublisher) private readonly answers: CommandAnswersPublisher,
    @Inject(CommandIntakeHandler) private readonly handler: CommandIntakeHandler,
  ) {}

  /** Before the tables stop: a rolling restart hands over partitions with nothing in flight. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.handler.stopConsuming();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.answers.disconnect().catch(() => undefined);
  }
}
