import type { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import type { VirtualDealer } from '../tables/virtual-dealer';
import type { ScannerService } from './scanner.service';

/**
 * Starts and stops the scanners after and before the tables; the virtual dealer deals from the
 * virtual shoes after each committed transition, and scanners and virtual shoes are open only
 * for the tables this instance drives.
 */
export class ScannersLifecycle {
  constructor(
    private readonly scanners: ScannerService,
    private readonly registry: TableRuntimeRegistry,
    private readonly dealer: VirtualDealer,
  ) {
    registry.onTransition((tableId, outcome) => dealer.onTransition(tableId, outcome));
    registry.onDriven({
      // Not awaited: the table runs at once; its virtual shoe deals once its reader is open.
      running: (tableId) => void scanners.attach(tableId),
      // Awaited: the last readings reach the table before it is released.
      stopping: (tableId) => scanners.detach(tableId),
    });
  }

  /** After the tables started: no reading arrives at a table that is not running. */
  async start(): Promise<void> {
    await this.scanners.start();
    for (const runtime of this.registry.all()) this.dealer.onTransition(runtime.tableId);
  }

  /** Closes the serial ports and stores their last readings while the database is open. */
  async stop(): Promise<void> {
    this.dealer.stop();
    await this.scanners.stop();
  }
}
