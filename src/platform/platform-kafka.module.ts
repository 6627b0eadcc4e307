import {
  BeforeApplicationShutdown,
  DynamicModule,
  Inject,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { KafkaOptions } from '@nestjs/microservices';
import { topicName } from '@studio/contracts';
import { logLevel, Partitioners } from 'kafkajs';
import { Clock } from '../clock/clock';
import type { KafkaConfig, StudioConfig } from '../config/studio-config';
import { CommandApplier } from './command-applier';
import { CommandIntakeStatus } from './command-intake-starter';
import { CommandInbox } from './inbox/command-inbox';
import { BatchingKafkaServer, CommandBatchHandler } from './batching-kafka-server';
import { CommandAnswersPublisher } from '../kafka/command-answers.publisher';
import { CommandIntake, IntakeOutcome, RawCommandMessage } from './command-intake';
import { kafkaConnection } from '../kafka/kafka-connection';
import { kafkaLogCreator } from '../kafka/kafka-log';

/** Reads a batch of command messages, applies them, and publishes their answers and dead letters. */
export class CommandIntakeHandler implements CommandBatchHandler {
  private readonly logger = new Logger('CommandIntake');

  private server?: BatchingKafkaServer;

  constructor(
    readonly intake: CommandIntake,
    private readonly inbox: CommandInbox,
    private readonly answers: CommandAnswersPublisher,
    private readonly clock: Clock,
  ) {}

  /** The consumer this handler serves (stopped first at shutdown). */
  attach(server: BatchingKafkaServer): void {
    this.server = server;
  }

  /**
   * Leaves the consumer group with the in-flight batch applied, answered and committed, so the
   * partitions pass to the other instances at once and nothing is read twice.
   */
  async stopConsuming(): Promise<void> {
    await this.server?.close().catch((error: unknown) => {
      this.logger.warn(`Closing the command consumer failed: ${String(error)}`);
    });
  }

  /** Partitions moved: commands other instances forwarded may wait for tables driven here. */
  rebalanced(): void {
    this.inbox.rebalanced();
  }

  /**
   * Bad input never throws (it is answered or dead-lettered, and the consumer moves on). Only an
   * infrastructure failure (database, broker) throws, so the offsets are not committed and the
   * commands are read again; their command ids then return the stored answers.
   */
  async handleBatch(raws: RawCommandMessage[]): Promise<void> {
    await this.publish(raws, await this.apply(raws));
  }

  /** Applies the commands (committed when this resolves); their answers are not out yet. */
  apply(raws: RawCommandMessage[]): Promise<IntakeOutcome[]> {
    return this.intake.processBatch(raws);
  }

  /** The next chunk, while this one is applied: parsed, its stored answers looked up. */
  prefetch(raws: RawCommandMessage[]): void {
    this.intake.prefetch(raws);
  }

  /** Publishes the answers and dead letters of applied commands, in their order. */
  async publish(raws: RawCommandMessage[], outcomes: IntakeOutcome[]): Promise<void> {
    await this.answers.publishResults(
      outcomes.flatMap((o) => (o.kind === 'answered' ? [o.result] : [])),
    );
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

class AnswersLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(CommandAnswersPublisher) private readonly answers: CommandAnswersPublisher,
    @Inject(CommandIntakeHandler) private readonly handler: CommandIntakeHandler,
  ) {}
  /** Before the tables stop: a rolling restart hands over partitions with nothing in flight. */
  async beforeApplicationShutdown(): Promise<void> {
    intakeShutdown.started = true;
    await this.handler.stopConsuming();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.answers.disconnect().catch(() => undefined);
  }
}

/**
 * Platform commands over Kafka (@nestjs/microservices transport, one consumer group). Only
 * present when KAFKA_BROKERS is set and KAFKA_COMMAND_INTAKE is not false.
 */
@Module({})
export class PlatformKafkaModule {
  static forRoot(
    config: StudioConfig,
    deps: { clock: Clock; commands: DynamicModule; kafka: DynamicModule },
  ): DynamicModule {
    if (!config.kafka?.commands.enabled) return { module: PlatformKafkaModule };
    intakeShutdown.started = false; // a new service in this process (tests restart it)
    return {
      module: PlatformKafkaModule,
      imports: [deps.commands, deps.kafka],
      providers: [
        {
          provide: CommandIntakeHandler,
          inject: [CommandApplier, CommandInbox, CommandAnswersPublisher],
          useFactory: (
            applier: CommandApplier,
            inbox: CommandInbox,
            answers: CommandAnswersPublisher,
          ) =>
            new CommandIntakeHandler(
              new CommandIntake(applier, inbox, deps.clock),
              inbox,
              answers,
              deps.clock,
            ),
        },
        AnswersLifecycle,
        CommandIntakeStatus,
      ],
      exports: [CommandIntakeHandler, CommandIntakeStatus],
    };
  }
}

/** Set before the microservices close, so a crashed consumer is not restarted any more. */
const intakeShutdown = { started: false };

/** The command consumer: the microservices Kafka server, reading in batches. */
export function commandIntakeServer(
  config: KafkaConfig,
  handler: CommandIntakeHandler,
): BatchingKafkaServer {
  const server = new BatchingKafkaServer(
    commandIntakeOptions(config),
    topicName('platformCommands', config.topicPrefix),
    handler,
    config.commands.batchSize,
  );
  handler.attach(server);
  return server;
}

/** The microservice transport options of the command consumer. */
export function commandIntakeOptions(config: KafkaConfig): Required<KafkaOptions>['options'] {
  return {
    // Use the configured ids as they are (Nest would append "-server").
    postfixId: '',
    client: {
      clientId: `${config.clientId}-commands`,
      ...kafkaConnection(config),
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator('CommandIntakeKafka', { errors: 'consumer-crash' }),
      retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 5_000 },
    },
    consumer: {
      groupId: config.commands.groupId,
      // Ride out a broker outage inside the consumer instead of crashing and restarting it: a
      // restart pending when the service shuts down would outlive the shutdown.
      retry: {
        retries: Number.MAX_SAFE_INTEGER,
        initialRetryTime: 300,
        maxRetryTime: 5_000,
        restartOnFailure: async () => !intakeShutdown.started,
      },
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      // A backlog (a decision window of 100,000 players) is read in batches of tens of thousands:
      // each batch ends with its last chunk's answers published before the next is fetched.
      maxBytesPerPartition: 16 * 1024 * 1024,
      maxBytes: 32 * 1024 * 1024,
    },
    // Nest's own producer (unused for events) with the partitioner every client here uses.
    producer: { createPartitioner: Partitioners.DefaultPartitioner },
    // A new group starts at the oldest command: nothing sent before the first start is lost.
    subscribe: { fromBeginning: true },
    run: { partitionsConsumedConcurrently: config.commands.partitionsConsumedConcurrently },
  };
}
