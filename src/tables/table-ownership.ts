import { Logger } from '@nestjs/common';
import { oneLine } from '../common/one-line';
import { TableLease, TableLeaseRepository } from '../database/table-lease.repository';

/** Sharing the tables out among the live instances (absent: take whatever is free). */
export interface TableBalancing {
  /** Leases and presence expire after this long without renewal. */
  ttlMs: number;
  /** Whether a table may be handed to another instance now (it is between rounds). */
  canHandOver(tableId: string): boolean;
}

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
  /** The last fair share computed (kept when the database cannot be asked). */
  private share = Infinity;

  constructor(
    private readonly leases: TableLeaseRepository,
    private readonly instanceId: string,
    private readonly tableIds: readonly string[],
    private readonly listener: OwnershipListener,
    private readonly renewIntervalMs: number,
    private readonly balancing?: TableBalancing,
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
    // All tables at once: leases are no longer renewed, so a table stopped late would see its
    // lease expire and be taken as after a crash (paused) instead of handed over.
    await Promise.all(
      [...this.held].map(async ([tableId, lease]) => {
        await this.listener.lost(tableId);
        await this.leases.release(lease).catch(() => undefined);
      }),
    );
    this.held.clear();
    if (this.balancing) await this.leases.withdraw(this.instanceId).catch(() => undefined);
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
    const share = await this.fairShare();
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
        if (this.held.size >= share) continue;
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
    if (this.held.size > share && !this.stopped) await this.handOverOne();
  }

  /** Tables this instance should drive: all when alone or unbalanced, else its even share. */
  private async fairShare(): Promise<number> {
    if (!this.balancing) return Infinity;
    try {
      const live = await this.leases.announce(this.instanceId, this.balancing.ttlMs);
      this.share = Math.ceil(this.tableIds.length / Math.max(1, live));
    } catch (error) {
      this.logger.warn(`Could not announce this instance: ${oneLine(error)}`);
    }
    return this.share;
  }

  /**
   * More than its share (another instance joined): one table between rounds is released the way
   * a graceful stop releases it, and an instance below its share takes it and continues at once.
   */
  private async handOverOne(): Promise<void> {
    const tableId = [...this.held.keys()].find((id) => this.balancing!.canHandOver(id));
    if (!tableId) return;
    const lease = this.held.get(tableId)!;
    this.held.delete(tableId);
    try {
      await this.listener.lost(tableId);
      await this.leases.release(lease);
      this.logger.log(`Handed table ${tableId} over to even out the tables among the instances`);
    } catch (error) {
      this.logger.warn(`Handing table ${tableId} over failed: ${oneLine(error)}`);
    }
  }
}
