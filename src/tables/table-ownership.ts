import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../common/config-error';
import { oneLine } from '../common/one-line';
import type { LeaseStore, TableLease } from './ports';
import { lossReason, seconds, tableList } from './table-ownership.reports';

/**
 * After this instance's liveness session came back: how long the others get to open theirs and
 * renew their leases (each retries its session every second) before their tables count as free.
 */
const SETTLING_MS = 3_000;

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
  /**
   * How often the instance looks for dead instances (their session lock gone), free tables while
   * it is below its share, and tables to hand over while above it. Default 250 ms.
   */
  probeIntervalMs?: number;
}

export interface OwnershipListener {
  /** This instance now drives the table (rebuild it from the database and continue). */
  acquired(lease: TableLease): Promise<void> | void;
  /** This instance must stop driving the table at once (lease lost or shutting down). */
  lost(tableId: string): Promise<void> | void;
  /** Another instance died (its database session ended): its in-flight work may be delayed. */
  instanceGone?(instanceId: string): void;
}

/** What a handover of every table before a stop did (see TableOwnership.handOverAll). */
export interface HandOverReport {
  /** Released between rounds. */
  handedOver: string[];
  /** Still mid-round at the deadline: stop() releases them (their next owner continues the round). */
  remaining: string[];
}

/**
 * Keeps this instance's claims on its configured tables: renews the leases it holds, takes free or
 * expired ones, and tells the listener when a table is gained or lost. Several instances configured
 * with the same tables share them out. An instance's liveness is its database session (an advisory
 * lock, see LivenessSession): when one dies the others see its lock gone within a probe interval,
 * expire its leases and take its tables; the TTL remains the fallback (a partition).
 */
export class TableOwnership {
  private readonly logger = new Logger('TableOwnership');
  private readonly held = new Map<string, TableLease>();
  private timer?: NodeJS.Timeout;
  private renewTimer?: NodeJS.Timeout;
  private probeTimer?: NodeJS.Timeout;
  private renewing?: Promise<void>;
  private running?: Promise<void>;
  private probing = false;
  private kicked = false;
  private started = false;
  private stopped = false;
  /** Set by handOverAll: no table is taken any more, each is handed over between rounds. */
  private draining = false;
  /** The last fair share computed (kept when the database cannot be asked). */
  private share = Infinity;
  /** This process, among processes that might be started with the same instance id. */
  private readonly token = randomUUID();
  private impostorReported = false;
  /** When the held leases were last renewed (performance.now()), and since when renewals fail. */
  private renewedAt = performance.now();
  private failingSince?: number;
  private livenessRetryAt = 0;
  /**
   * Set when this instance's liveness session opens again after it was lost (a database outage,
   * a cut connection): until then it takes nothing of another instance. Every instance lost its
   * session in the same outage, so a missing lock or an expired lease then says nothing about
   * the others being dead: they get this long to open their sessions and renew their leases.
   */
  private settlingUntil = 0;

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

  /** Tables per live instance, by the leases in the database (operators' view of the spread). */
  async distribution(): Promise<Record<string, number>> {
    return (await this.leases.distribution?.()) ?? { [this.instanceId]: this.held.size };
  }

  /**
   * Claims tables now, then keeps claiming every renewIntervalMs. Renewing runs on its own timer
   * and in one statement, so a slow start of a newly acquired table never lets the others expire.
   */
  async start(): Promise<void> {
    this.started = true;
    this.leases.onInstanceGone?.((id) => {
      if (id !== this.instanceId) this.listener.instanceGone?.(id);
    });
    await this.claimInstanceId();
    // Renewing starts before the first claims: starting 300 tables one after another takes longer
    // than the TTL on a loaded host, and the first ones' leases must not lapse meanwhile.
    this.renewedAt = performance.now();
    this.renewTimer = setInterval(() => void this.renewHeld(), this.renewIntervalMs);
    await this.loop();
    if (this.balancing?.sharedDatabase) {
      this.probeTimer = setInterval(() => void this.probe(), this.balancing.probeIntervalMs ?? 250);
    }
  }

  /** Releases every lease so other instances can take over without waiting for expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    clearInterval(this.probeTimer);
    await this.running;
    // All tables at once, still renewed meanwhile: a table stopped late must not see its lease
    // expire and be taken as after a crash (paused) instead of handed over.
    await Promise.all([...this.held.keys()].map((tableId) => this.release(tableId)));
    clearInterval(this.renewTimer);
    await this.renewing;
    this.held.clear();
    if (this.balancing) {
      await this.leases.withdraw(this.instanceId, this.token).catch(() => undefined);
    }
    await this.leases.closeLiveness?.();
  }

  /** Takes no more tables from now on (a stop asked while the service starts). */
  stopTaking(): void {
    this.draining = true;
  }

  /**
   * Before a graceful stop: takes no more tables and hands each held table over as soon as it is
   * between rounds (never mid-round), until all are gone or the deadline (epoch ms) passes. What
   * is still mid-round then is released by stop(), every reading committed, so its next owner
   * continues the round at once.
   */
  async handOverAll(deadline: number): Promise<HandOverReport> {
    this.draining = true;
    const handedOver: string[] = [];
    for (;;) {
      const ready = [...this.held.keys()].filter((id) => this.balancing?.canHandOver(id) ?? true);
      await Promise.all(ready.map((id) => this.release(id)));
      handedOver.push(...ready);
      if (this.held.size === 0 || Date.now() >= deadline) break;
      await sleep(Math.min(100, Math.max(0, deadline - Date.now())));
    }
    const remaining = this.ownedTables;
    this.logger.log(
      `Handed ${handedOver.length} tables over between rounds` +
        (remaining.length > 0 ? `; ${remaining.length} still mid-round at the deadline` : ''),
    );
    return { handedOver, remaining };
  }

  /** Stops the table here, then gives the lease up (its next owner continues at once). */
  private async release(tableId: string): Promise<void> {
    const lease = this.held.get(tableId);
    if (!lease) return;
    this.held.delete(tableId);
    await this.listener.lost(tableId);
    await this.leases.release(lease).catch(() => undefined);
  }

  /**
   * Two live processes under one instance id would both take that id's leases. A predecessor that
   * crashed is waited out (its session lock goes at once, its presence within the TTL); a live
   * one refuses the start.
   */
  private async claimInstanceId(): Promise<void> {
    if (!this.balancing?.sharedDatabase) return;
    const deadline = performance.now() + this.balancing.ttlMs + 1_000;
    for (;;) {
      try {
        const liveness = (await this.leases.openLiveness?.(this.instanceId)) ?? 'off';
        const presence =
          liveness === 'taken'
            ? undefined
            : await this.leases.announce(this.instanceId, this.token, this.balancing.ttlMs);
        if (presence?.mine) return;
      } catch (error) {
        // An outage at start-up: the ownership loop keeps trying, the check is made there too.
        this.logger.warn(`Could not announce this instance: ${oneLine(error)}`);
        return;
      }
      if (performance.now() > deadline) {
        await this.leases.closeLiveness?.();
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
    if (this.kicked) {
      this.kicked = false;
      return this.loop();
    }
    if (this.started && !this.stopped) {
      this.timer = setTimeout(() => void this.loop(), this.renewIntervalMs);
    }
  }

  /** Claims now rather than at the next tick (tables became free); once more if one is running. */
  private kick(): void {
    if (this.stopped || this.draining) return;
    if (this.running) {
      this.kicked = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    void this.loop();
  }

  /**
   * The fast path between ticks: dead instances (session lock gone) lose their leases now, free
   * tables are claimed while below the share, and tables above it are handed over between rounds.
   */
  private async probe(): Promise<void> {
    if (this.probing || this.stopped) return;
    this.probing = true;
    try {
      await this.keepLivenessOpen();
      if (!this.mayTakeOthers()) return;
      const dead = (await this.leases.expireDeadInstances?.(this.instanceId)) ?? [];
      for (const { owner, tables } of dead) {
        this.listener.instanceGone?.(owner);
        this.logger.warn(
          `Instance "${owner}" is gone (its database session ended: the process died or lost its connection); ` +
            `its ${tables} tables are free now`,
        );
      }
      if (this.draining) return;
      if (dead.length > 0) this.kick();
      else if ((await this.anyClaimable()) && (await this.belowShare())) this.kick();
      if (this.held.size > this.share) await this.handOverExcess();
    } catch (error) {
      this.logger.debug(`Liveness probe failed: ${oneLine(error)}`);
    } finally {
      this.probing = false;
    }
  }

  /** The liveness session broke (a connection cut): opened again, at most once a second. */
  private async keepLivenessOpen(): Promise<void> {
    if (!this.leases.livenessLost || performance.now() < this.livenessRetryAt) return;
    this.livenessRetryAt = performance.now() + 1_000;
    const state = await this.leases.openLiveness?.(this.instanceId);
    if (state === 'open') {
      this.settlingUntil = performance.now() + SETTLING_MS;
      this.logger.warn(
        `Liveness session was lost and is open again: renewing this instance's leases, taking no other instance's tables for ${SETTLING_MS} ms`,
      );
      void this.renewHeld();
    }
    if (state === 'taken') {
      this.logger.error(
        `Another live process holds the liveness lock of instance "${this.instanceId}": give each instance its own STUDIO_INSTANCE_ID`,
      );
    }
  }

  /**
   * Whether to claim more. At its share, the share is asked again: another survivor may have
   * expired a dead instance's leases, and this one would otherwise see the smaller number of live
   * instances only at its next tick, seconds later.
   */
  private async belowShare(): Promise<boolean> {
    return this.held.size < this.share || this.held.size < (await this.fairShare());
  }

  /**
   * Not while this instance's own liveness session is lost, nor while the others settle after.
   * Only a shared database has sessions to lose (the embedded one serves this process alone).
   */
  private mayTakeOthers(): boolean {
    if (!this.balancing?.sharedDatabase) return true;
    return !this.leases.livenessLost && performance.now() >= this.settlingUntil;
  }

  private async anyClaimable(): Promise<boolean> {
    if (!this.leases.claimable) return false;
    const free = await this.leases.claimable(this.notHeld(), this.instanceId);
    return free.length > 0;
  }

  private notHeld(): string[] {
    return this.tableIds.filter((id) => !this.held.has(id));
  }

  /** Renews every held lease in one statement; tells the listener of those lost, and why. */
  private async renewHeld(): Promise<void> {
    if (this.renewing) return this.renewing;
    const run = (async () => {
      const mine = [...this.held.values()];
      try {
        const started = performance.now();
        const renewed = new Map((await this.leases.renewAll(mine)).map((l) => [l.tableId, l]));
        this.reportRenewal(performance.now() - started, renewed.size, mine.length);
        for (const lease of mine) {
          const now = renewed.get(lease.tableId);
          if (this.held.get(lease.tableId) !== lease) continue; // released or replaced meanwhile
          if (now) {
            this.held.set(lease.tableId, { ...lease, expiresAt: now.expiresAt });
            continue;
          }
          this.held.delete(lease.tableId);
          const row = await this.leases.current?.(lease.tableId).catch(() => null);
          this.logger.warn(
            `Lost table ${lease.tableId} (epoch ${lease.epoch}): ${lossReason(lease, row)}`,
          );
          await this.listener.lost(lease.tableId);
        }
      } catch (error) {
        this.reportFailedRenewal(error);
      }
    })();
    this.renewing = run;
    try {
      await run;
    } finally {
      this.renewing = undefined;
    }
  }

  /**
   * A renewal slower than its interval is how leases start to lapse under a live owner; one late
   * by half the TTL says the leases came close to lapsing; the first after failures ends an outage.
   */
  private reportRenewal(tookMs: number, kept: number, held: number): void {
    const now = performance.now();
    const sinceLast = now - this.renewedAt;
    this.renewedAt = now;
    if (this.failingSince !== undefined) {
      const outage = now - this.failingSince;
      this.failingSince = undefined;
      const lapsed = this.balancing && outage > this.balancing.ttlMs;
      this.logger.warn(
        `Database outage of ${seconds(outage)} s is over: kept ${kept} of ${held} tables under the same lease epochs` +
          (lapsed && kept > 0 ? ' (their leases had lapsed and nobody took them)' : '') +
          (kept < held ? `; ${held - kept} taken by other instances meanwhile` : ''),
      );
      return;
    }
    if (tookMs > this.renewIntervalMs) {
      this.logger.warn(
        `Lease renewal took ${Math.round(tookMs)} ms, longer than its ${this.renewIntervalMs} ms interval: ` +
          'the database or this process is overloaded, and its tables may pass to other instances',
      );
    } else if (this.balancing && sinceLast > this.renewIntervalMs + this.balancing.ttlMs / 2) {
      this.logger.warn(
        `Lease renewal late: ${Math.round(sinceLast)} ms since the last one (interval ${this.renewIntervalMs} ms, ` +
          `TTL ${this.balancing.ttlMs} ms): this process was stalled`,
      );
    }
  }

  /** One warning when renewals start failing; the outage's length is said when it ends. */
  private reportFailedRenewal(error: unknown): void {
    if (this.failingSince !== undefined) {
      this.logger.debug(`Lease renewal failed again: ${oneLine(error)}`);
      return;
    }
    this.failingSince = this.renewedAt;
    this.logger.warn(
      `Lease renewal failed (database unreachable?): ${oneLine(error)}; ` +
        'tables stay here and are kept when it comes back unless another instance took them',
    );
  }

  private async renewAndAcquire(): Promise<void> {
    const share = await this.fairShare();
    await this.renewHeld();
    if (this.draining || !this.mayTakeOthers()) return;
    const candidates = await this.candidates();
    const starting: Array<Promise<void>> = [];
    for (const tableId of candidates) {
      if (this.stopped || this.draining) break;
      if (this.held.has(tableId) || this.held.size >= share) continue;
      try {
        const acquired = await this.leases.tryAcquire(tableId, this.instanceId);
        if (acquired) {
          this.held.set(tableId, acquired);
          this.logger.debug(`Driving table ${tableId} (epoch ${acquired.epoch})`);
          starting.push(this.startDriving(acquired));
        }
      } catch (error) {
        this.logger.warn(`Lease upkeep for table ${tableId} failed: ${oneLine(error)}`);
      }
    }
    // The tables taken start side by side: a survivor taking a dead instance's six tables rebuilt
    // them one after another, and the last one's first transition came seconds after the kill.
    await Promise.all(starting);
    if (this.held.size > share && !this.stopped) await this.handOverExcess();
  }

  /**
   * A table that cannot start (its state could not be read: the database went away) gives its
   * lease up, so that it is taken again (here or elsewhere) instead of being held and renewed
   * with no runtime driving it.
   */
  private async startDriving(lease: TableLease): Promise<void> {
    try {
      await this.listener.acquired(lease);
    } catch (error) {
      this.logger.warn(
        `Could not start table ${lease.tableId}: ${oneLine(error)}; its lease is given up to be taken again`,
      );
      if (this.held.get(lease.tableId) !== lease) return;
      this.held.delete(lease.tableId);
      await Promise.resolve(this.listener.lost(lease.tableId)).catch(() => undefined);
      await this.leases.release(lease).catch(() => undefined);
    }
  }

  /** Tables a claim can win now (one query), or every table not held when the store cannot say. */
  private async candidates(): Promise<readonly string[]> {
    const notHeld = this.notHeld();
    if (!this.leases.claimable || this.held.size >= this.share) return notHeld;
    try {
      return await this.leases.claimable(notHeld, this.instanceId);
    } catch {
      return notHeld;
    }
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
   * More than its share (another instance joined): the tables above it that are between rounds
   * are released the way a graceful stop releases them, and instances below their share take
   * them and continue at once. A table mid-round waits for its round to end (a later probe).
   */
  private async handOverExcess(): Promise<void> {
    const excess = this.held.size - this.share;
    if (!this.balancing || excess <= 0) return;
    const ready = [...this.held.keys()].filter((id) => this.balancing!.canHandOver(id));
    const chosen = ready.slice(0, excess);
    if (chosen.length === 0) return;
    await Promise.all(chosen.map((id) => this.release(id)));
    this.logger.log(
      `Handed ${chosen.length} tables over between rounds to even out the instances (share ${this.share}): ${tableList(chosen)}`,
    );
  }
}
