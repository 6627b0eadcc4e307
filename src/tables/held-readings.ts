import type { Logger } from '@nestjs/common';
import { backoffMs } from '../common/backoff';
import { oneLine } from '../common/one-line';
import type { TableState } from '../table-core/table-machine';
import type { CommandResult, ReadingRecord } from '../use-cases/common/tables.port';

/** What the held readings need of their table. */
export interface HoldingTable {
  readonly tableId: string;
  /** Runs `work` in the table's queue (no two transitions of the table interleave). */
  inQueue<T>(work: () => Promise<T>): Promise<T>;
  /** Steps and commits one reading; throws when the commit failed. */
  apply(record: ReadingRecord): Promise<CommandResult>;
  /**
   * After a failed commit: takes up the stored state when it moved on (the commit landed after
   * all), and returns the table's state.
   */
  reload(): Promise<TableState | undefined>;
  /** A failure the database may get over (out, slow, a lease lapsed in the outage). */
  retryable(error: unknown): boolean;
  /** The table is being let go: nothing more is applied here. */
  lettingGo(): boolean;
  /** Stores a reading on its own (not applied here). */
  storeAlone(record: ReadingRecord): void;
  /** The readings held changed (one more held, or applied, or let go): the consoles show it. */
  heldChanged?(): void;
  readonly logger: Logger;
}

/** What a table waiting for the database holds: since when (the first card's read), and how many. */
export interface DatabaseWait {
  since: string;
  readings: number;
}

/** Why a table refuses other input while card readings wait (HTTP 503, a Kafka batch read again). */
export class TableWaitsForDatabaseError extends Error {
  constructor(tableId: string, cause: unknown) {
    super(`Table ${tableId} waits for the database: a card read meanwhile is not stored yet`, {
      cause,
    });
    this.name = 'TableWaitsForDatabaseError';
  }
}

interface Held {
  record: ReadingRecord;
  resolve(result: CommandResult): void;
  reject(error: unknown): void;
}

/**
 * Card readings a table could not commit because the database was out or too slow. A card read at
 * the table is a fact: each is held, in order, and applied as soon as the database takes it again.
 * Meanwhile the table refuses other input at once (bets, decisions and supervisor actions answer
 * `database-unavailable` instead of waiting behind the card; timers try again), so nothing is
 * applied before a card read earlier. The retries run outside the table's queue, so a stop never
 * waits for the database: a table let go stores what it held on its own (the next owner's frame
 * check sees it). A commit whose answer was lost is recognised in the stored state (its last read
 * is this reading), not applied twice.
 */
export class HeldReadings {
  private readonly held: Held[] = [];
  private retrying = false;
  private lastError: unknown;

  constructor(private readonly table: HoldingTable) {}

  get waiting(): boolean {
    return this.held.length > 0;
  }

  /** Since when, and how many readings wait; null while none does. */
  get wait(): DatabaseWait | null {
    const first = this.held[0];
    if (!first) return null;
    const at = first.record.reading.receivedAt;
    return { since: new Date(at).toISOString(), readings: this.held.length };
  }

  /** The error other input is refused with while readings are held. */
  refusal(): TableWaitsForDatabaseError {
    return new TableWaitsForDatabaseError(this.table.tableId, this.lastError);
  }

  /** Holds a reading (behind any held already) until the database takes it. */
  hold(record: ReadingRecord, error?: unknown): Promise<CommandResult> {
    if (error !== undefined) this.lastError = error;
    if (this.held.length === 0) {
      this.table.logger.warn(`A card reading waits for the database: ${oneLine(this.lastError)}`);
    }
    const result = new Promise<CommandResult>((resolve, reject) =>
      this.held.push({ record, resolve, reject }),
    );
    this.table.heldChanged?.();
    if (!this.retrying) void this.retry();
    return result;
  }

  private async retry(): Promise<void> {
    this.retrying = true;
    for (let attempt = 1; this.held.length > 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, backoffMs(200, 1_000, attempt - 1)));
      if (this.table.lettingGo()) {
        this.letGo();
        break;
      }
      await this.table.inQueue(() => this.drain()).catch(() => undefined);
      if (attempt % 30 === 0 && this.held.length > 0) {
        this.table.logger.warn(
          `${this.held.length} card reading(s) still wait for the database (attempt ${attempt}): ${oneLine(this.lastError)}`,
        );
      }
    }
    this.retrying = false;
  }

  /** In the table's queue: the held readings in order, until one fails again. */
  private async drain(): Promise<void> {
    while (this.held.length > 0) {
      const next = this.held[0];
      try {
        next.resolve(await this.table.apply(next.record));
      } catch (error) {
        if (await this.landed(next.record)) {
          this.table.logger.warn("A card reading's commit had landed although its answer was lost");
          next.resolve({ accepted: true, reply: {} });
        } else if (this.table.retryable(error)) {
          this.lastError = error;
          return;
        } else {
          this.table.storeAlone(next.record);
          next.reject(error);
        }
      }
      this.held.shift();
      this.table.heldChanged?.();
      if (this.held.length === 0) this.table.logger.log('The card readings held are applied');
    }
  }

  /** The stored state's last read is this reading: its commit landed. */
  private async landed(record: ReadingRecord): Promise<boolean> {
    const state = await this.table.reload().catch(() => undefined);
    const last = state?.ingestion.lastRead;
    const reading = record.reading;
    if (!last || reading.kind === 'heartbeat' || reading.kind === 'status') return false;
    return (
      last.at === reading.receivedAt &&
      last.code === (reading.kind === 'card' ? reading.code : null)
    );
  }

  private letGo(): void {
    for (const entry of this.held.splice(0)) {
      this.table.storeAlone(entry.record);
      entry.reject(this.refusal());
    }
    this.table.heldChanged?.();
  }
}
