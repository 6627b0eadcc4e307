import {
  BeforeApplicationShutdown,
  Controller,
  DynamicModule,
  Inject,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Ctx, EventPattern, KafkaContext, KafkaOptions, Transport } from '@nestjs/microservices';
import { logLevel, Partitioners } from 'kafkajs';
import { Clock } from '../clock/clock';
import type { KafkaConfig, StudioConfig } from '../config/studio-config';
import { Decide } from '../use-cases/decide.use-case';
import { PlaceBet } from '../use-cases/place-bet.use-case';
import { CommandAnswersPublisher } from './command-answers.publisher';
import { CommandIntake, RawCommandMessage } from './command-intake';
import { kafkaConnection } from './kafka-client-options';

/** Reads one command message, applies it, and publishes its answer or dead letter. */
export class CommandIntakeHandler {
  private readonly logger = new Logger('CommandIntake');

  constructor(
    readonly intake: CommandIntake,
    private readonly answers: CommandAnswersPublisher,
    private readonly clock: Clock,
  ) {}

  /**
   * Bad input never throws (it is answered or dead-lettered, and the consumer moves on). Only an
   * infrastructure failure (database, broker) throws, so the offset is not committed and the
   * command is read again; its command id then returns the stored answer.
   */
  async handle(raw: RawCommandMessage): Promise<void> {
    const outcome = await this.intake.process(raw);
    if (outcome.kind === 'answered') {
      await this.answers.publishResult(outcome.result);
      return;
    }
    this.logger.warn(
      `Dead-lettered ${raw.topic}/${raw.partition}@${raw.offset}: ${outcome.code}: ${outcome.reason}`,
    );
    await this.answers.publishDeadLetter(raw, outcome.code, outcome.reason, this.clock.now());
  }
}

interface KafkaMessageLike {
  key?: unknown;
  value?: unknown;
  offset: string;
}

function toRaw(context: KafkaContext): RawCommandMessage {
  const message = context.getMessage() as unknown as KafkaMessageLike;
  const key = message.key;
  return {
    topic: context.getTopic(),
    partition: context.getPartition(),
    offset: message.offset,
    // The transport decodes keys (and parses JSON-looking ones); compare them as text.
    key:
      key === null || key === undefined
        ? null
        : typeof key === 'string'
          ? key
          : Buffer.isBuffer(key)
            ? key.toString('utf8')
            : JSON.stringify(key),
    value: Buffer.isBuffer(message.value)
      ? message.value
      : message.value === null || message.value === undefined
        ? null
        : Buffer.from(String(message.value)),
  };
}

/** The topic is only known at start-up (it carries the deployment's prefix), hence a factory. */
function commandsController(topic: string) {
  @Controller()
  class PlatformKafkaController {
    constructor(@Inject(CommandIntakeHandler) private readonly handler: CommandIntakeHandler) {}

    @EventPattern(topic)
    async command(@Ctx() context: KafkaContext): Promise<void> {
      await this.handler.handle(toRaw(context));
    }
  }
  return PlatformKafkaController;
}

class AnswersLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(@Inject(CommandAnswersPublisher) private readonly answers: CommandAnswersPublisher) {}
  beforeApplicationShutdown(): void {
    intakeShutdown.started = true;
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
  static forRoot(config: StudioConfig): DynamicModule {
    const kafka = config.kafka;
    if (!kafka?.commands.enabled) return { module: PlatformKafkaModule };
    const answers = new CommandAnswersPublisher(kafka);
    intakeShutdown.started = false; // a new service in this process (tests restart it)
    return {
      module: PlatformKafkaModule,
      controllers: [commandsController(answers.commandsTopic)],
      providers: [
        { provide: CommandAnswersPublisher, useValue: answers },
        {
          provide: CommandIntakeHandler,
          inject: [ModuleRef],
          // The use cases live in the tables module; found by type across modules.
          useFactory: (ref: ModuleRef) => {
            const clock = ref.get(Clock, { strict: false });
            const intake = new CommandIntake(
              ref.get(PlaceBet, { strict: false }),
              ref.get(Decide, { strict: false }),
              clock,
            );
            return new CommandIntakeHandler(intake, answers, clock);
          },
        },
        AnswersLifecycle,
      ],
      exports: [CommandAnswersPublisher, CommandIntakeHandler],
    };
  }
}

/** Set before the microservices close, so a crashed consumer is not restarted any more. */
const intakeShutdown = { started: false };

/** The microservice transport options of the command consumer. */
export function commandIntakeTransport(config: KafkaConfig): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      // Use the configured ids as they are (Nest would append "-server").
      postfixId: '',
      client: {
        clientId: `${config.clientId}-commands`,
        ...kafkaConnection(config),
        logLevel: logLevel.WARN,
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
      },
      // Nest's own producer (unused for events) with the partitioner every client here uses.
      producer: { createPartitioner: Partitioners.DefaultPartitioner },
      // A new group starts at the oldest command: nothing sent before the first start is lost.
      subscribe: { fromBeginning: true },
      run: { partitionsConsumedConcurrently: config.commands.partitionsConsumedConcurrently },
      // Keep the value as bytes: a dead letter must carry exactly what was sent.
      parser: { keepBinary: true },
    },
  };
}
