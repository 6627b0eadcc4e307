import { DynamicModule, Module } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { ChainCheckpointRepository } from './chain-checkpoint.repository';
import { ChainCheckpointer } from './chain-checkpointer';

/** Anchors every driven table's event chain on the events topic (ChainCheckpoint events). */
@Module({})
export class ChainCheckpointModule {
  static forRoot(deps: {
    config: StudioConfig;
    clock: Clock;
    ids: IdGenerator;
    history: DynamicModule;
    tables: DynamicModule;
  }): DynamicModule {
    const { clock, ids } = deps;
    // CHAIN_CHECKPOINT_INTERVAL_MS, validated at start-up; 0 checkpoints only at round end.
    const intervalMs = deps.config.orchestrator.chainCheckpointIntervalMs;
    return {
      module: ChainCheckpointModule,
      imports: [deps.history, deps.tables],
      providers: [
        {
          provide: ChainCheckpointer,
          inject: [ChainCheckpointRepository, TableRuntimeRegistry],
          useFactory: (repository: ChainCheckpointRepository, registry: TableRuntimeRegistry) => {
            const checkpointer = new ChainCheckpointer(
              repository,
              registry,
              clock,
              ids,
              intervalMs,
            );
            // Subscribed while the module is built, so the tables' first round ends are heard.
            registry.onTransition((tableId, outcome) =>
              checkpointer.onTransition(tableId, outcome),
            );
            return checkpointer;
          },
        },
      ],
    };
  }
}
