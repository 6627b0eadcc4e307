import { Logger } from '@nestjs/common';
import { oneLine } from '../common/one-line';
import { TableLease, TableLeaseRepository } from '../database/table-lease.repository';

export interface OwnershipListener {
  /** This instance now drives the table (rebuild it from the database and continue). */
  acquired(lease: TableLease): Promise<void> | void;
  /** This instance must stop driving the table at once (lease lost or shutting down). */
  lost(tableId: string): Promise<void> | void;
}

/**
 * Keeps this instance's claims on its configured tables: renews the leases it holds, takes free or
 * expired ones, and tells the listener when a table is gained or lost. Several instances configured
 * with the same tables share them out; when one dies its tables pass to the others after the TTL.
 */
export class TableOwnership {
  private readonly logger = new Logger('TableOwnership');
  private readonly held = new Map<string, TableLease>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private started = false;
  private stopped = false;

  constructor(
    private readonly leases: TableLeaseRepository,
    private readonly instanceId: string,
    private readonly tableIds: readonly string[],
    private readonly listener: OwnershipListener,
    private readonly renewIntervalMs: number,
  ) {}

  get ownedTables(): string[] {
    return [...this.held.keys()].sort();
  }

  lease(tableId: string): TableLease | undefined {
    return this.held.get(tableId);
  }

  /** Claims tables now, then keeps renewing and claiming every renewIntervalMs. */
  async start(): Promise<void> {
    this.started = true;
    await this.loop();
  }

  /** Releases every lease so other instances can take over without waiting for expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    for (const [tableId, lease] of this.held) {
      await this.listener.lost(tableId);
      await this.leases.release(lease).catch(() => undefined);
    }
    this.held.clear();
  }

  /** One round of renewing and acquiring (the loop's step; tests call it directly). */
  async tick(): Promise<void> {
    const run = this.renewAndAcquire();
    this.running = run;
    try {
      await run;
    } finally {
      this.running = undefined;
    }
  }

  private async loop(): Promise<void> {
    await this.tick();
    if (this.started && !this.stopped) {
      this.timer = setTimeout(() => void this.loop(), this.renewIntervalMs);
    }
  }

  private async renewAndAcquire(): Promise<void> {
    for (const tableId of this.tableIds) {
      if (this.stopped) return;
      try {
        const current = this.held.get(tableId);
        if (current) {
          const renewed = await this.leases.renew(current);
          if (renewed) {
            this.held.set(tableId, renewed);
            continue;
          }
          this.held.delete(tableId);
          this.logger.warn(
            `Lost table ${tableId} (epoch ${current.epoch}): another instance took it`,
          );
          await this.listener.lost(tableId);
        }
        const acquired = await this.leases.tryAcquire(tableId, this.instanceId);
        if (acquired) {
          this.held.set(tableId, acquired);
          this.logger.log(`Driving table ${tableId} (epoch ${acquired.epoch})`);
          await this.listener.acquired(acquired);
        }
      } catch (error) {
        this.logger.warn(`Lease upkeep for table ${tableId} failed: ${oneLine(error)}`);
      }
    }
  }
}
