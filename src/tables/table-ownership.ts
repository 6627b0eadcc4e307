import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../common/config-error';
import { oneLine } from '../common/one-line';
import type { LeaseStore, TableLease } from './ports';

/** Sharing the tables out among the live instances (absent: take whatever is free). */
export interface TableBalancing {
  /** Leases and presence expire after this long without renewal. */
  ttlMs: number;
  /** Whether a table may be handed to another instance now (it is between rounds). */
  canHandOver(tableId: string): boolean;
  /**
   * Whether other processes can reach the database (a PostgreSQL server). The embedded database
   * serves one process, so there is no one to share an instance id with, and nothing to wait for.
   */
  sharedDatabase: boolean;
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
  private renewTimer?: NodeJS.Timeout;
  private renewing?: Promise<void>;
  private running?: Promise<void>;
  private started = false;
  private stopped = false;
  /** The last fair share computed (kept when the database cannot be asked). */
  private share = Infinity;
  /** This process, among processes that might be started with the same instance id. */
  private readonly token = randomUUID();
  private impostorReported = false;

  constructor(
    private readonly leases: LeaseStore,
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

  /**
   * Claims tables now, then keeps claiming every renewIntervalMs. Renewing runs on its own timer
   * and in one statement, so a slow start of a newly acquired table never lets the others expire.
   */
  async start(): Promise<void> {
    this.started = true;
    await this.claimInstanceId();
    await this.loop();
    this.renewTimer = setInterval(() => void this.renewHeld(), this.renewIntervalMs);
  }

  /** Releases every lease so other instances can take over without waiting for expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    // All tables at once, still renewed meanwhile: a table stopped late must not see its lease
    // expire and be taken as after a crash (paused) instead of handed over.
    await Promise.all(
      [...this.held].map(async ([tableId, lease]) => {
        await this.listener.lost(tableId);
        this.held.delete(tableId);
        await this.leases.release(lease).catch(() => undefined);
      }),
    );
    clearInterval(this.renewTimer);
    await this.renewing;
    this.held.clear();
    if (this.balancing) {
      await this.leases.withdraw(this.instanceId, this.token).catch(() => undefined);
    }
  }

  /**
   * Two live processes under one instance id would both take that id's leases. A predecessor that
   * crashed is waited out (its presence expires within the TTL); a live one refuses the start.
   */
  private async claimInstanceId(): Promise<void> {
    if (!this.balancing?.sharedDatabase) return;
    const deadline = performance.now() + this.balancing.ttlMs + 1_000;
    for (;;) {
      try {
        const presence = await this.leases.announce(
          this.instanceId,
          this.token,
          this.balancing.ttlMs,
        );
        if (presence.mine) return;
      } catch (error) {
        // An outage at start-up: the ownership loop keeps trying, the check is made there too.
        this.logger.warn(`Could not announce this instance: ${oneLine(error)}`);
        return;
      }
      if (performance.now() > deadline) {
        throw new ConfigError(
          `STUDIO_INSTANCE_ID "${this.instanceId}" is in use by another live instance: give each instance its own id`,
        );
      }
      await sleep(500);
    }
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

  /** Renews every held lease in one statement; tells the listener of those another instance took. */
  private async renewHeld(): Promise<void> {
    if (this.renewing) return this.renewing;
    const run = (async () => {
      const mine = [...this.held.values()];
      try {
        const started = performance.now();
        const renewed = new Map((await this.leases.renewAll(mine)).map((l) => [l.tableId, l]));
        this.reportSlowRenewal(performance.now() - started);
        for (const lease of mine) {
          const now = renewed.get(lease.tableId);
          if (this.held.get(lease.tableId) !== lease) continue; // released or replaced meanwhile
          if (now) {
            this.held.set(lease.tableId, { ...lease, expiresAt: now.expiresAt });
            continue;
          }
          this.held.delete(lease.tableId);
          this.logger.warn(
            `Lost table ${lease.tableId} (epoch ${lease.epoch}): another instance took it`,
          );
          await this.listener.lost(lease.tableId);
        }
      } catch (error) {
        this.logger.warn(`Lease renewal failed: ${oneLine(error)}`);
      }
    })();
    this.renewing = run;
    try {
      await run;
    } finally {
      this.renewing = undefined;
    }
  }

  /** A renewal slower than its interval is how leases start to lapse under a live owner. */
  private reportSlowRenewal(tookMs: number): void {
    if (tookMs <= this.renewIntervalMs) return;
    this.logger.warn(
      `Lease renewal took ${Math.round(tookMs)} ms, longer than its ${this.renewIntervalMs} ms interval: ` +
        'the database or this process is overloaded, and its tables may pass to other instances',
    );
  }

  private async renewAndAcquire(): Promise<void> {
    const share = await this.fairShare();
    await this.renewHeld();
    for (const tableId of this.tableIds) {
      if (this.stopped) return;
      if (this.held.has(tableId) || this.held.size >= share) continue;
      try {
        const acquired = await this.leases.tryAcquire(tableId, this.instanceId);
        if (acquired) {
          this.held.set(tableId, acquired);
          this.logger.debug(`Driving table ${tableId} (epoch ${acquired.epoch})`);
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
      const { live, mine } = await this.leases.announce(
        this.instanceId,
        this.token,
        this.balancing.ttlMs,
      );
      this.share = Math.ceil(this.tableIds.length / Math.max(1, live));
      if (!mine && !this.impostorReported) {
        // Our presence lapsed (an outage) and another process took our id: the lease epochs keep
        // the two from writing over each other, but the operator must fix the ids.
        this.impostorReported = true;
        this.logger.error(
          `Another live process announces itself as instance "${this.instanceId}": give each instance its own STUDIO_INSTANCE_ID`,
        );
      }
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
