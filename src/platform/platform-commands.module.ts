import { DynamicModule, Module } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { CommandInboxRepository } from '../database/command-inbox.repository';
import { CommandAnswersPublisher } from '../kafka/command-answers.publisher';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { ApplyCommands } from '../use-cases/apply-commands/apply-commands.use-case';
import { CancelBet } from '../use-cases/cancel-bet/cancel-bet.use-case';
import { PLACED_BETS, PlacedBets } from '../use-cases/cancel-bet/placed-bets.port';
import { Decide } from '../use-cases/decide/decide.use-case';
import { PlaceBet } from '../use-cases/place-bet/place-bet.use-case';
import { CommandApplier } from './command-applier';
import { CommandInbox } from './inbox/command-inbox';

/**
 * Platform commands on their way to their tables, whichever transport brought them: the applier
 * (commands for tables driven here), the per-table inbox (commands for tables driven elsewhere)
 * and the HTTP commands' use cases (PlaceBet, Decide, CancelBet), which use both.
 */
@Module({})
export class PlatformCommandsModule {
  static forRoot(deps: {
    config: StudioConfig;
    clock: Clock;
    ids: IdGenerator;
    inboxRepository: CommandInboxRepository;
    tables: DynamicModule;
    kafka: DynamicModule;
    /** The history: where a cancellation finds its bet. */
    history: DynamicModule;
  }): DynamicModule {
    const { config, clock, ids } = deps;
    const url = config.database.url;
    return {
      module: PlatformCommandsModule,
      imports: [deps.tables, deps.kafka, deps.history],
      providers: [
        {
          provide: CommandApplier,
          inject: [ApplyCommands],
          useFactory: (apply: ApplyCommands) => new CommandApplier(apply),
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
          provide: PlaceBet,
          inject: [TableRuntimeRegistry, CommandInbox],
          useFactory: (registry: TableRuntimeRegistry, inbox: CommandInbox) =>
            new PlaceBet(registry, ids, inbox),
        },
        {
          provide: Decide,
          inject: [TableRuntimeRegistry, CommandInbox],
          useFactory: (registry: TableRuntimeRegistry, inbox: CommandInbox) =>
            new Decide(registry, ids, inbox),
        },
        {
          provide: CancelBet,
          inject: [TableRuntimeRegistry, CommandInbox, PLACED_BETS],
          useFactory: (registry: TableRuntimeRegistry, inbox: CommandInbox, bets: PlacedBets) =>
            new CancelBet(registry, ids, inbox, bets),
        },
      ],
      exports: [CommandApplier, CommandInbox, PlaceBet, Decide, CancelBet],
    };
  }
}
