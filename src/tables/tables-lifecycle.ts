import { Logger } from '@nestjs/common';
import type { HandOverReport, TableOwnership } from './table-ownership';

/** Starts and stops table ownership; the lifecycle of the studio calls these in order. */
export class TablesLifecycle {
  private readonly logger = new Logger('TablesLifecycle');
  constructor(private readonly ownership: TableOwnership) {}

  async start(): Promise<void> {
    await this.ownership.start();
    this.logger.log(`Driving tables: ${this.ownership.ownedTables.join(', ') || 'none yet'}`);
  }

  /** A stop asked while starting: no table is taken any more (stop() releases those taken). */
  stopTaking(): void {
    this.ownership.stopTaking();
  }

  /**
   * The graceful stop's first step: no table is taken any more and each held table is handed over
   * as soon as it is between rounds, until `deadline` (epoch ms). stop() then releases what is
   * still mid-round (its next owner continues the round, every reading committed).
   */
  handOverAll(deadline: number): Promise<HandOverReport> {
    return this.ownership.handOverAll(deadline);
  }

  /** The tables this instance drives now. */
  get ownedTables(): string[] {
    return this.ownership.ownedTables;
  }

  /** Tables per live instance (metrics, readiness details). */
  distribution(): Promise<Record<string, number>> {
    return this.ownership.distribution();
  }

  async stop(): Promise<void> {
    const driven = this.ownership.ownedTables.join(', ');
    await this.ownership.stop();
    if (driven) this.logger.log(`Released tables ${driven}: the next owner takes them at once`);
  }
}
