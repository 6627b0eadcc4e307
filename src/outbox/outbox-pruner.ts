import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '../clock/clock';
import type { OutboxPruningConfig } from '../config/studio-config';
import type { OutboxPruneStore } from './outbox-prune.store';

export interface PruneResult {
  deleted: number;
  /** Another instance was pruning: this pass did nothing. */
  skipped: boolean;
}

/**
 * Deletes outbox rows that are only a copy: published to Kafka (the table's progress is past
 * them) and older than the retention (docs/retention.md). The round events, not the outbox, are
 * the record. Runs on a timer in every instance; a lock lets one prune at a time.
 */
export class OutboxPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxPruner');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly store: OutboxPruneStore,
    private readonly config: OutboxPruningConfig,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** One pass over every table, batch by batch, up to the rows still kept. */
  async pruneOnce(): Promise<PruneResult> {
    const before = new Date(this.clock.now().getTime() - this.config.afterMs);
    let deleted = 0;
    for (const upTo of await this.store.published()) {
      for (;;) {
        const n = await this.store.pruneBatch(upTo, before, this.config.batchSize);
        if (n === null) return { deleted, skipped: true };
        deleted += n;
        if (n < this.config.batchSize) break;
      }
    }
    return { deleted, skipped: false };
  }

  onApplicationBootstrap(): void {
    if (this.config.afterMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pruneOnce()
        .then((r) => {
          if (r.deleted > 0) this.logger.log(`pruned ${r.deleted} published outbox row(s)`);
        })
        .catch((error: unknown) =>
          this.logger.warn(
            `outbox pruning failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => (this.running = undefined));
    }, this.config.intervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
