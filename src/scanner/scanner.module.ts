import { DynamicModule, Module } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { readingsFlushLimitMs, ScannerReadingRecorder } from '../history/reading-recorder';
import { ScannerHistoryRepository } from '../history/scanner-history.repository';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { VirtualDealer } from '../tables/virtual-dealer';
import { ApplyReadingCommand } from '../use-cases/apply-reading/apply-reading.command';
import { ApplyReading } from '../use-cases/apply-reading/apply-reading.use-case';
import { ScannerService } from './scanner.service';
import { ScannersLifecycle } from './scanners-lifecycle';

/**
 * The tables' card readers (serial ports, virtual shoes) and the virtual dealer: every reading a
 * table applies goes to it through ApplyReading, stored by the transition that applies it.
 */
@Module({})
export class ScannerModule {
  static forRoot(deps: {
    config: StudioConfig;
    clock: Clock;
    ids: IdGenerator;
    history: DynamicModule;
    tables: DynamicModule;
  }): DynamicModule {
    const { config, clock, ids } = deps;
    return {
      module: ScannerModule,
      imports: [deps.history, deps.tables],
      providers: [
        {
          provide: ScannerService,
          inject: [
            ScannerHistoryRepository,
            ScannerReadingRecorder,
            TableRuntimeRegistry,
            ApplyReading,
          ],
          useFactory: (
            history: ScannerHistoryRepository,
            recorder: ScannerReadingRecorder,
            registry: TableRuntimeRegistry,
            applyReading: ApplyReading,
          ) =>
            new ScannerService(config.tables, {
              recorder,
              statusEvents: history,
              clock,
              ids,
              // A reading that cannot be committed (the database is away) is logged by its table,
              // stored on its own and not applied; the table still expects that card, so the next
              // reading takes its place.
              apply: (record) =>
                void applyReading
                  .execute(ApplyReadingCommand.create(record))
                  .catch(() => undefined),
              observe: (tableId, reading) => registry.observeFrame(tableId, reading),
              drivenHere: (tableId) => registry.get(tableId).ok,
              flushLimitMs: readingsFlushLimitMs(config.shutdownTimeoutMs),
            }),
        },
        {
          provide: VirtualDealer,
          inject: [TableRuntimeRegistry, ScannerService],
          useFactory: (registry: TableRuntimeRegistry, scanners: ScannerService) =>
            new VirtualDealer(
              registry,
              {
                isVirtual: (id) => scanners.states().some((s) => s.tableId === id && s.virtual),
                dealVirtualCard: (id) => scanners.dealVirtualCard(id),
                newVirtualShoe: (id, shoeNumber) => scanners.newVirtualShoe(id, shoeNumber),
                resumeVirtualShoe: (id, shoeNumber, counts) =>
                  scanners.resumeVirtualShoe(id, shoeNumber, counts),
              },
              config.orchestrator.virtualDealerPaceMs,
            ),
        },
        {
          provide: ScannersLifecycle,
          inject: [ScannerService, TableRuntimeRegistry, VirtualDealer],
          useFactory: (
            scanners: ScannerService,
            registry: TableRuntimeRegistry,
            dealer: VirtualDealer,
          ) => new ScannersLifecycle(scanners, registry, dealer),
        },
      ],
      exports: [ScannerService, ScannersLifecycle],
    };
  }
}
