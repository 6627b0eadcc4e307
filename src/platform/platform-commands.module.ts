import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { CommandInboxRepository } from '../database/command-inbox.repository';
import { CommandAnswersPublisher } from '../kafka/command-answers.publisher';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { ApplyCommands } from '../use-cases/apply-commands.use-case';
import { Decide } from '../use-cases/decide.use-case';
import { PlaceBet } from '../use-cases/place-bet.use-case';
import { CommandApplier } from './command-applier';
import { CommandInbox } from './inbox/command-inbox';
import { PlatformCommands } from './platform-commands';

/**
 * Platform commands on their way to their tables, whichever transport brought them: the applier
 * (commands for tables driven here) and the per-table inbox (commands for tables driven elsewhere).
 */
@Module({})
export class PlatformCommandsModule {
  static forRoot(deps: {
    config: StudioConfig;
    clock: Clock;
    inboxRepository: CommandInboxRepository;
    tables: DynamicModule;
    kafka: DynamicModule;
  }): DynamicModule {
    const { config, clock } = deps;
    const url = config.database.url;
    return {
      module: PlatformCommandsModule,
      imports: [deps.tables, deps.kafka],
      providers: [
        {
          provide: CommandApplier,
          inject: [PlaceBet, Decide, ApplyCommands],
          useFactory: (placeBet: PlaceBet, decide: Decide, apply: ApplyCommands) =>
            new CommandApplier(placeBet, decide, apply),
        },
        {
          provide: CommandInbox,
          inject: [
            TableRuntimeRegistry,
            CommandApplier,
            { token: CommandAnswersPublisher, optional: true },
          ],
          useFactory: (
            registry: TableRuntimeRegistry,
            applier: CommandApplier,
            answers: CommandAnswersPublisher | undefined,
          ) =>
            new CommandInbox(deps.inboxRepository, registry, applier, answers, clock, {
              waitMs: config.orchestrator.commandWaitMs,
              batchSize: config.kafka?.commands.batchSize ?? 2_000,
              pollMs: 1_000,
              // The embedded PGlite serves one connection: no LISTEN there (one instance).
              listen: url
                ? {
                    url,
                    applicationName: `studio:${config.instanceId}:command-inbox`,
                    connectTimeoutMs: config.database.connectTimeoutMs,
                  }
                : undefined,
            }),
        },
        {
          provide: PlatformCommands,
          inject: [PlaceBet, Decide, CommandInbox],
          useFactory: (placeBet: PlaceBet, decide: Decide, inbox: CommandInbox) =>
            new PlatformCommands(placeBet, decide, inbox),
        },
      ],
      exports: [CommandApplier, CommandInbox, PlatformCommands],
    };
  }
}
