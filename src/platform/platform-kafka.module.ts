import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { CommandApplier } from './command-applier';
import { CommandIntakeStatus } from './command-intake-starter';
import { CommandInbox } from './inbox/command-inbox';
import { CommandAnswersPublisher } from '../kafka/command-answers.publisher';
import { PlatformTopics } from '../kafka/platform-topics';
import { CommandIntake } from './command-intake';
import { PlatformDirectory } from '../platforms/platform-directory';
import { PlatformCurrencies } from './platform-currencies';
import { AnswersLifecycle, CommandIntakeHandler } from './command-intake.handler';
import { CommandWindowHold } from '../tables/command-window-hold';

/**
 * Platform commands over Kafka (@nestjs/microservices transport, one consumer group). Only
 * present when KAFKA_BROKERS is set and KAFKA_COMMAND_INTAKE is not false.
 */
@Module({})
export class PlatformKafkaModule {
  static forRoot(
    config: StudioConfig,
    deps: {
      clock: Clock;
      commands: DynamicModule;
      kafka: DynamicModule;
      platforms: DynamicModule;
      tables: DynamicModule;
    },
  ): DynamicModule {
    if (!config.kafka?.commands.enabled) return { module: PlatformKafkaModule };
    return {
      module: PlatformKafkaModule,
      imports: [deps.commands, deps.kafka, deps.platforms, deps.tables],
      providers: [
        {
          provide: CommandIntakeHandler,
          inject: [
            CommandApplier,
            CommandInbox,
            CommandAnswersPublisher,
            PlatformDirectory,
            CommandWindowHold,
          ],
          useFactory: (
            applier: CommandApplier,
            inbox: CommandInbox,
            answers: CommandAnswersPublisher,
            directory: PlatformDirectory,
            windows: CommandWindowHold,
          ) =>
            new CommandIntakeHandler(
              new CommandIntake(
                applier,
                inbox,
                deps.clock,
                new PlatformTopics(config.kafka?.topicPrefix),
                new PlatformCurrencies(directory),
              ),
              inbox,
              answers,
              deps.clock,
              windows,
            ),
        },
        AnswersLifecycle,
        CommandIntakeStatus,
      ],
      exports: [CommandIntakeHandler, CommandIntakeStatus],
    };
  }
}
