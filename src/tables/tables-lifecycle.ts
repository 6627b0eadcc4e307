import { Logger } from '@nestjs/common';
import type { TableOwnership } from './table-ownership';

/** Starts and stops table ownership; the lifecycle of the studio calls these in order. */
export class TablesLifecycle {
  private readonly logger = new Logger('TablesLifecycle');
  constructor(private readonly ownership: TableOwnership) {}

  async start(): Promise<void> {
    await this.ownership.start();
    this.logger.log(`Driving tables: ${this.ownership.ownedTables.join(', ') || 'none yet'}`);
  }

  async stop(): Promise<void> {
    const driven = this.ownership.ownedTables.join(', ');
    await this.ownership.stop();
    if (driven) this.logger.log(`Released tables ${driven}: the next owner takes them at once`);
  }
}
