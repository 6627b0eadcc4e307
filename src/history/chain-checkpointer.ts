import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Clock, IdGenerator } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { ChainCheckpointRepository } from './chain-checkpoint.repository';
import { CheckpointSchedule, mayEndRound, TransitionWrites } from './chain-checkpoint-schedule';

/** The tables this instance drives right now (the table runtime registry). */
export interface DrivenTables {
  all(): ReadonlyArray<{ tableId: string }>;
}

/**
 * Publishes each driven table's chain head as a ChainCheckpoint event (through the outbox) after
 * every transition that ends a round (or may have: a state taken up after a lost commit) and every
 * `intervalMs` (0: only at round end) when the chain grew. Once on the broker, the checkpoint
 * anchors the chain outside the database, so deleting the newest events no longer verifies as a
 * shorter chain. Never throws into the tables: a database outage is logged and the checkpoint is
 * taken at the next occasion.
 */
export class ChainCheckpointer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ChainCheckpoint');
  private readonly schedule = new CheckpointSchedule();
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly repository: ChainCheckpointRepository,
    private readonly tables: DrivenTables,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly intervalMs: number,
  ) {}

  onTransition(tableId: string, outcome: TransitionWrites): void {
    if (mayEndRound(outcome)) this.request(tableId);
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      for (const { tableId } of this.tables.all()) this.request(tableId);
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Before the tables and the database shut down: no new checkpoints, in-flight ones finish. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.inFlight.values());
  }

  /** Checkpoints of one table run one after the other, never two at once. */
  private request(tableId: string): void {
    if (this.stopped) return;
    const previous = this.inFlight.get(tableId) ?? Promise.resolve();
    const next = previous.then(() => this.checkpoint(tableId));
    this.inFlight.set(tableId, next);
    void next.then(() => {
      if (this.inFlight.get(tableId) === next) this.inFlight.delete(tableId);
    });
  }

  /** Resolves in every case: a failure is logged and retried at the next occasion. */
  private async checkpoint(tableId: string): Promise<void> {
    if (!this.repository.open) return;
    if (!this.tables.all().some((t) => t.tableId === tableId)) {
      this.schedule.forget(tableId);
      return;
    }
    try {
      const head = await this.repository.head(tableId);
      if (!this.schedule.due(tableId, head)) return;
      await this.repository.append(this.ids.newId(), {
        tableId,
        eventNo: head.eventNo,
        hash: head.hash,
        checkpointAt: this.clock.now().toISOString(),
      });
      this.schedule.published(tableId, head);
    } catch (error) {
      this.logger.warn(
        `Chain checkpoint of table ${tableId} not taken, retried at the next occasion: ${oneLine(error)}`,
      );
    }
  }
}
