import { DynamicModule, Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import {
  PLATFORM_KEYS,
  PlatformHttpController,
  PlatformKeyGuard,
} from '../platform/platform-http.controller';
import { createTransitionWriter } from '../history/writer/transition-writer';
import { TableStateRepository } from '../history/writer/table-state.repository';
import { TableActionsController } from '../supervisor/table-actions.controller';
import { ApplyCommands } from '../use-cases/apply-commands.use-case';
import { ApplyReading } from '../use-cases/apply-reading/apply-reading.use-case';
import { ApproveVoid } from '../use-cases/approve-void/approve-void.use-case';
import { CloseBetting } from '../use-cases/close-betting/close-betting.use-case';
import { CorrectCard } from '../use-cases/correct-card/correct-card.use-case';
import { Decide } from '../use-cases/decide.use-case';
import { DrawCutCard } from '../use-cases/draw-cut-card/draw-cut-card.use-case';
import { EndShoe } from '../use-cases/end-shoe/end-shoe.use-case';
import { PauseRound } from '../use-cases/pause-round/pause-round.use-case';
import { PlaceBet } from '../use-cases/place-bet.use-case';
import { ResumeRound } from '../use-cases/resume-round/resume-round.use-case';
import { VoidRound } from '../use-cases/void-round/void-round.use-case';
import { TableLeaseRepository } from '../database/table-lease.repository';
import { TableOwnership } from './table-ownership';
import { TableRuntimeRegistry } from './table-runtime.registry';
import { TablesController } from './tables.controller';
import { STUDIO_CONFIG } from '../tokens';

/** Starts and stops table ownership; the lifecycle of the studio calls these in order. */
export class TablesLifecycle {
  private readonly logger = new Logger('TablesLifecycle');
  constructor(private readonly ownership: TableOwnership) {}

  async start(): Promise<void> {
    await this.ownership.start();
    this.logger.log(`Driving tables: ${this.ownership.ownedTables.join(', ') || 'none yet'}`);
  }

  async stop(): Promise<void> {
    await this.ownership.stop();
  }
}

/** Round orchestration: leases, table runtimes, the use cases and their HTTP controllers. */
@Module({})
export class TablesModule {
  static forRoot(deps: {
    config: StudioConfig;
    dataSource: DataSource;
    clock: Clock;
    ids: IdGenerator;
  }): DynamicModule {
    const { config, dataSource, clock, ids } = deps;
    const leases = new TableLeaseRepository(dataSource, config.orchestrator.leaseTtlMs);
    const { writer, supervisorActions } = createTransitionWriter(
      dataSource,
      new TableStateRepository(dataSource, leases),
      config.kafka?.topicPrefix ?? '',
    );
    const registry = new TableRuntimeRegistry(config.tables, writer, clock, ids);
    const ownership = new TableOwnership(
      leases,
      config.instanceId,
      registry.tableIds,
      registry,
      Math.max(250, Math.floor(config.orchestrator.leaseTtlMs / 3)),
    );
    const useCases = [
      CloseBetting,
      DrawCutCard,
      PauseRound,
      ResumeRound,
      CorrectCard,
      EndShoe,
      ApplyReading,
      Decide,
      ApplyCommands,
    ].map((useCase) => ({ provide: useCase, useValue: new useCase(registry) }));
    return {
      module: TablesModule,
      controllers: [TablesController, TableActionsController, PlatformHttpController],
      providers: [
        { provide: TableRuntimeRegistry, useValue: registry },
        { provide: TableOwnership, useValue: ownership },
        { provide: PlaceBet, useValue: new PlaceBet(registry, ids) },
        {
          provide: VoidRound,
          useValue: new VoidRound(
            registry,
            supervisorActions,
            config.orchestrator.voidRequiresApproval,
          ),
        },
        { provide: ApproveVoid, useValue: new ApproveVoid(registry, supervisorActions) },
        { provide: STUDIO_CONFIG, useValue: config },
        { provide: PLATFORM_KEYS, useValue: config.orchestrator.platformKeys },
        PlatformKeyGuard,
        { provide: TablesLifecycle, useValue: new TablesLifecycle(ownership) },
        ...useCases,
      ],
      exports: [
        TableRuntimeRegistry,
        TablesLifecycle,
        ApplyReading,
        PlaceBet,
        Decide,
        ApplyCommands,
      ],
    };
  }
}
