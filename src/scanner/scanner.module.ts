import { DynamicModule, Module } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { ScannerHistoryRepository } from '../history/scanner-history.repository';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { VirtualDealer } from '../tables/virtual-dealer';
import { ApplyReadingCommand } from '../use-cases/apply-reading/apply-reading.command';
import { ApplyReading } from '../use-cases/apply-reading/apply-reading.use-case';
import { ScannerService } from './scanner.service';

/**
 * Starts and stops the scanners: every decoded reading goes to its table (ApplyReading), and the
 * virtual dealer deals from the virtual shoes after each committed transition.
 */
export class ScannersLifecycle {
  constructor(
    private readonly scanners: ScannerService,
    private readonly registry: TableRuntimeRegistry,
    private readonly applyReading: ApplyReading,
    private readonly dealer: VirtualDealer,
  ) {
    registry.onTransition((tableId, outcome) => dealer.onTransition(tableId, outcome));
    registry.onDriven({
      running: (tableId) => scanners.attach(tableId),
      stopping: (tableId) => scanners.detach(tableId),
    });
  }

  /** After the tables started: no reading arrives at a table that is not running. */
  async start(): Promise<void> {
    // Each reading is stored by the transition that applies it (one commit for both).
    this.scanners.claimReadings((tableId, reading, unstored) => {
      if (!this.registry.get(tableId).ok) return false;
      // A reading that cannot be committed (the database is away) is logged by its table, stored
      // on its own and not applied; the table still expects that card, so the next reading
      // takes its place.
      this.applyReading
        .execute(ApplyReadingCommand.create({ tableId, readingId: null, reading, unstored }))
        .catch(() => undefined);
      return true;
    });
    await this.scanners.start();
    for (const runtime of this.registry.all()) this.dealer.onTransition(runtime.tableId);
  }

  /** Closes the serial ports and stores their last readings while the database is open. */
  async stop(): Promise<void> {
    this.dealer.stop();
    await this.scanners.stop();
  }
}

/** The tables' card readers (serial ports, virtual shoes) and the virtual dealer. */
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
          inject: [ScannerHistoryRepository, TableRuntimeRegistry],
          useFactory: (history: ScannerHistoryRepository, registry: TableRuntimeRegistry) =>
            new ScannerService(
              config.tables,
              history,
              clock,
              ids,
              undefined,
              undefined,
              (tableId) => registry.get(tableId).ok,
            ),
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
          inject: [ScannerService, TableRuntimeRegistry, ApplyReading, VirtualDealer],
          useFactory: (
            scanners: ScannerService,
            registry: TableRuntimeRegistry,
            apply: ApplyReading,
            dealer: VirtualDealer,
          ) => new ScannersLifecycle(scanners, registry, apply, dealer),
        },
      ],
      exports: [ScannerService, ScannersLifecycle],
    };
  }
}
