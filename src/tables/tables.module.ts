import { DynamicModule, Module } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { TableLeaseRepository } from '../database/table-lease.repository';
import { TableRegistryRepository } from '../history/table-registry.repository';
import { SupervisorActionsRepository } from '../history/writer/supervisor-actions.repository';
import { TransitionWriter } from '../history/writer/transition-writer';
import { ScannerReadingRecorder } from '../history/reading-recorder';
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
import { STUDIO_CONFIG } from '../tokens';
import { RegisterConfiguredTables } from './register-configured-tables.use-case';
import { TableOwnership } from './table-ownership';
import { TableRuntimeRegistry } from './table-runtime.registry';
import { TablesController } from './tables.controller';
import { TablesLifecycle } from './tables-lifecycle';

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
      controllers: [TablesController],
      providers: [
        { provide: STUDIO_CONFIG, useValue: config },
        {
          provide: TableRuntimeRegistry,
          inject: [TransitionWriter, ScannerReadingRecorder],
          useFactory: (writer: TransitionWriter, readings: ScannerReadingRecorder) =>
            new TableRuntimeRegistry(config.tables, writer, readings, clock, ids),
        },
        {
          provide: TableOwnership,
          inject: [TableLeaseRepository, TableRuntimeRegistry],
          useFactory: (leases: TableLeaseRepository, registry: TableRuntimeRegistry) =>
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
          inject: [TableRegistryRepository],
          useFactory: (tables: TableRegistryRepository) =>
            new RegisterConfiguredTables(tables, clock, ids),
        },
        {
          provide: ApplyCommands,
          inject: [TableRuntimeRegistry],
          useFactory: (registry: TableRuntimeRegistry) => new ApplyCommands(registry, ids),
        },
        {
          provide: VoidRound,
          inject: [TableRuntimeRegistry, SupervisorActionsRepository],
          useFactory: (registry: TableRuntimeRegistry, actions: SupervisorActionsRepository) =>
            new VoidRound(registry, actions, config.orchestrator.voidRequiresApproval),
        },
        {
          provide: ApproveVoid,
          inject: [TableRuntimeRegistry, SupervisorActionsRepository],
          useFactory: (registry: TableRuntimeRegistry, actions: SupervisorActionsRepository) =>
            new ApproveVoid(registry, actions),
        },
        ...useCases,
      ],
      exports: [
        TableRuntimeRegistry,
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
