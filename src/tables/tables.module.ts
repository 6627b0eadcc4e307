import { DynamicModule, Module } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import { KAFKA_COMMAND_SESSION_TIMEOUT_MS, type StudioConfig } from '../config/studio-config';
import { ApplyCommands } from '../use-cases/apply-commands/apply-commands.use-case';
import { ApplyReading } from '../use-cases/apply-reading/apply-reading.use-case';
import { ApproveVoid } from '../use-cases/approve-void/approve-void.use-case';
import { CloseBetting } from '../use-cases/close-betting/close-betting.use-case';
import { CorrectCard } from '../use-cases/correct-card/correct-card.use-case';
import { DrawCutCard } from '../use-cases/draw-cut-card/draw-cut-card.use-case';
import { EndShoe } from '../use-cases/end-shoe/end-shoe.use-case';
import { PauseRound } from '../use-cases/pause-round/pause-round.use-case';
import { ResumeRound } from '../use-cases/resume-round/resume-round.use-case';
import { VoidRound } from '../use-cases/void-round/void-round.use-case';
import { CommandWindowHold } from './command-window-hold';
import { RegisterConfiguredTables } from './register-configured-tables.use-case';
import { TableOwnership } from './table-ownership';
import { TableRuntimeRegistry } from './table-runtime.registry';
import { TablesLifecycle } from './tables-lifecycle';
import {
  LEASE_STORE,
  LeaseStore,
  READING_STORE,
  ReadingStore,
  TABLE_REGISTRY_STORE,
  TRANSITION_STORE,
  TransitionStore,
} from './ports';
import { VOID_REQUESTS, VoidRequests } from '../use-cases/common/tables.port';
import { PLACED_BETS, PlacedBets } from '../use-cases/cancel-bet/placed-bets.port';
import type { TableRegistryStore } from './register-configured-tables.use-case';

/** Use cases that need nothing but the tables. */
const TABLE_USE_CASES = [
  CloseBetting,
  DrawCutCard,
  PauseRound,
  ResumeRound,
  CorrectCard,
  EndShoe,
  ApplyReading,
] as const;

/**
 * How long command windows stay open after an instance is found gone (CommandWindowHold): until
 * the command intake's consumer group has dropped it and handed its partitions over, plus 4 s for
 * the rebalance and the forward to the table's owner (2 s was short under load: a CI run had 4
 * bets sent in time refused after a SIGKILL). Without the Kafka intake, or with the
 * embedded database (one instance), there is nothing to wait for.
 */
function windowHoldMs(config: StudioConfig): number {
  const intake = config.kafka?.commands.enabled === true && config.database.url !== undefined;
  return intake ? KAFKA_COMMAND_SESSION_TIMEOUT_MS + 4_000 : 0;
}

/**
 * Round orchestration: table leases and runtimes, the table registration and the use cases every
 * edge (HTTP, Kafka, scanners, consoles) applies to tables. History comes from `history` (the one
 * HistoryModule of the service).
 */
@Module({})
export class TablesModule {
  static forRoot(deps: {
    config: StudioConfig;
    clock: Clock;
    ids: IdGenerator;
    history: DynamicModule;
  }): DynamicModule {
    const { config, clock, ids, history } = deps;
    const useCases = TABLE_USE_CASES.map((useCase) => ({
      provide: useCase,
      inject: [TableRuntimeRegistry],
      useFactory: (registry: TableRuntimeRegistry) => new useCase(registry),
    }));
    return {
      module: TablesModule,
      imports: [history],
      providers: [
        {
          provide: CommandWindowHold,
          useFactory: () => new CommandWindowHold(clock, windowHoldMs(config)),
        },
        {
          provide: TableRuntimeRegistry,
          inject: [TRANSITION_STORE, READING_STORE, LEASE_STORE, CommandWindowHold],
          useFactory: (
            writer: TransitionStore,
            readings: ReadingStore,
            leases: LeaseStore,
            hold: CommandWindowHold,
          ) =>
            new TableRuntimeRegistry(
              config.tables,
              writer,
              readings,
              clock,
              ids,
              leases.lastFrame ? { lastFrame: (id) => leases.lastFrame!(id) } : undefined,
              hold,
            ),
        },
        {
          provide: TableOwnership,
          inject: [LEASE_STORE, TableRuntimeRegistry],
          useFactory: (leases: LeaseStore, registry: TableRuntimeRegistry) =>
            new TableOwnership(
              leases,
              config.instanceId,
              registry.tableIds,
              registry,
              Math.max(250, Math.floor(config.orchestrator.leaseTtlMs / 3)),
              {
                ttlMs: config.orchestrator.leaseTtlMs,
                canHandOver: (tableId) => registry.isBetweenRounds(tableId),
                sharedDatabase: config.database.url !== undefined,
              },
            ),
        },
        {
          provide: TablesLifecycle,
          inject: [TableOwnership],
          useFactory: (ownership: TableOwnership) => new TablesLifecycle(ownership),
        },
        {
          provide: RegisterConfiguredTables,
          inject: [TABLE_REGISTRY_STORE],
          useFactory: (tables: TableRegistryStore) =>
            new RegisterConfiguredTables(tables, clock, ids),
        },
        {
          provide: ApplyCommands,
          inject: [TableRuntimeRegistry, PLACED_BETS],
          useFactory: (registry: TableRuntimeRegistry, bets: PlacedBets) =>
            new ApplyCommands(registry, ids, bets),
        },
        {
          provide: VoidRound,
          inject: [TableRuntimeRegistry, VOID_REQUESTS],
          useFactory: (registry: TableRuntimeRegistry, actions: VoidRequests) =>
            new VoidRound(registry, actions, config.orchestrator.voidRequiresApproval),
        },
        {
          provide: ApproveVoid,
          inject: [TableRuntimeRegistry, VOID_REQUESTS],
          useFactory: (registry: TableRuntimeRegistry, actions: VoidRequests) =>
            new ApproveVoid(registry, actions),
        },
        ...useCases,
      ],
      exports: [
        TableRuntimeRegistry,
        // Told by the command intake when its consumer group rebalances.
        CommandWindowHold,
        // Read by the metrics (tables driven here and their leases).
        TableOwnership,
        TablesLifecycle,
        RegisterConfiguredTables,
        ApplyCommands,
        VoidRound,
        ApproveVoid,
        ...TABLE_USE_CASES,
      ],
    };
  }
}
