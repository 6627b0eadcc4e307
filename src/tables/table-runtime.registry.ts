import { Logger } from '@nestjs/common';
import { Clock, IdGenerator } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { TableDefinition } from '../config/tables-config';
import { createGameAdapter } from '../games/game-registry';
import { TableMachine } from '../table-core/table-machine';
import type {
  CommandResult,
  ReadingRecord,
  SupervisionRelay,
  Tables,
} from '../use-cases/common/tables.port';
import type { ReadingStore, TableLease, TransitionStore } from './ports';
import { TableRuntime, TransitionListener } from './table-runtime';
import { tableRunSettings } from './table-settings';
import type { CommandWindowHold } from './command-window-hold';
import type { OwnershipListener } from './table-ownership';
import { FrameEvidence, FrameSource, frameSourceOf, TakeoverGuard } from './takeover-check';

/** Told when this instance starts and stops driving a table (scanner connections, inbox). */
export interface DrivenTablesListener {
  running(tableId: string): Promise<void> | void;
  stopping(tableId: string): Promise<void> | void;
}

export type RuntimeLookup =
  | { ok: true; runtime: TableRuntime }
  | { ok: false; code: 'unknown-table' | 'table-not-driven-here'; message: string };

/**
 * How long a command window already due when a table is taken over stays open: the commands that
 * waited for the table in the inbox (forwarded while it passed between instances) come first.
 */
const TAKEOVER_WINDOW_GRACE_MS = 2_000;

/**
 * The tables this instance drives right now. The ownership loop tells it when a lease is gained
 * (the table is rebuilt from the database) or lost (the runtime stops at once).
 */
export class TableRuntimeRegistry implements OwnershipListener, Tables {
  private readonly logger = new Logger('Tables');
  private readonly runtimes = new Map<string, TableRuntime>();
  private readonly machines = new Map<string, TableMachine>();
  private readonly frameSources = new Map<string, FrameSource>();
  private readonly listeners: TransitionListener[] = [];
  private readonly waitListeners: Array<(tableId: string) => void> = [];
  private readonly drivenListeners: DrivenTablesListener[] = [];
  private supervisionRelay?: SupervisionRelay;

  constructor(
    tables: readonly TableDefinition[],
    private readonly store: TransitionStore,
    private readonly readings: ReadingStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** Where a takeover finds the last stored frame (absent: a takeover mid-round pauses). */
    private readonly evidence?: FrameEvidence,
    /** Holds command windows open while a dead instance's commands wait (absent: none held). */
    private readonly windowHold?: CommandWindowHold,
  ) {
    for (const table of tables) {
      this.frameSources.set(table.id, frameSourceOf(table));
      const settings = tableRunSettings(table);
      // Every configured game has an adapter (the game registry is total over the four games).
      this.machines.set(table.id, new TableMachine(settings, createGameAdapter(settings)!));
    }
  }

  /** The configured tables, each of which this instance may come to drive. */
  get tableIds(): string[] {
    return [...this.machines.keys()];
  }

  onTransition(listener: TransitionListener): void {
    this.listeners.push(listener);
  }

  /** Told when a table's card readings waiting for the database change (TableRuntime.databaseWait). */
  onDatabaseWait(listener: (tableId: string) => void): void {
    this.waitListeners.push(listener);
  }

  onDriven(listener: DrivenTablesListener): void {
    this.drivenListeners.push(listener);
  }

  /** Set by the command inbox: actions on tables driven elsewhere go through it. */
  relaySupervisionVia(relay: SupervisionRelay): void {
    this.supervisionRelay = relay;
  }

  /** Where an action on a table driven by another instance goes, if this instance can pass it on. */
  get relay(): SupervisionRelay | undefined {
    return this.supervisionRelay;
  }

  get(tableId: string): RuntimeLookup {
    const runtime = this.runtimes.get(tableId);
    if (runtime) return { ok: true, runtime };
    if (!this.machines.has(tableId)) {
      return { ok: false, code: 'unknown-table', message: `No table "${tableId}" is configured` };
    }
    return {
      ok: false,
      code: 'table-not-driven-here',
      message: `Table "${tableId}" is driven by another instance (or is starting)`,
    };
  }

  /** Its table's transition stores the reading; with no table running here, it is stored alone. */
  submitReading(record: ReadingRecord): Promise<CommandResult> {
    const lookup = this.get(record.tableId);
    if (lookup.ok) return lookup.runtime.submitReading(record);
    this.readings.record(record);
    return Promise.resolve({ accepted: false, code: lookup.code, message: lookup.message });
  }

  /**
   * A frame of a table's reader that the table does not apply (heartbeat, status): the scanners
   * pass every one here, so that a table taken over can tell from its number that none was lost.
   */
  observeFrame(tableId: string, reading: { sequence?: number }): void {
    this.runtimes.get(tableId)?.observeFrame(reading);
  }

  /** Driven here and not in a round: the table can pass to another instance at no cost. */
  isBetweenRounds(tableId: string): boolean {
    const kind = this.runtimes.get(tableId)?.snapshot.phase.kind;
    return kind === 'between-rounds' || kind === 'awaiting-shoe';
  }

  all(): TableRuntime[] {
    return [...this.runtimes.values()];
  }

  async acquired(lease: TableLease): Promise<void> {
    const machine = this.machines.get(lease.tableId);
    if (!machine) return; // a lease row for a table no longer configured
    // Taken from another instance: commands the Kafka intake read for it meanwhile wait in the
    // inbox, and are woken once the table runs (below); a window already due waits for them a
    // moment. Without the intake (no hold) a crashed table's first transition is not delayed.
    const graced = lease.epoch > 1 && (this.windowHold?.holdMs ?? 0) > 0;
    const graceUntil = graced ? this.clock.now().getTime() + TAKEOVER_WINDOW_GRACE_MS : 0;
    const runtime = new TableRuntime(machine, {
      store: this.store,
      readings: this.readings,
      lease,
      clock: this.clock,
      ids: this.ids,
      listeners: this.listeners,
      waitListeners: this.waitListeners,
      deckCount: machine.adapter.shoeRules.deckCount,
      windowsHeldUntil: () => Math.max(graceUntil, this.windowHold?.heldUntil() ?? 0),
      windowCatchUp: this.windowHold?.catchUp.forTable(lease.tableId),
      takeover: this.evidence
        ? new TakeoverGuard(lease.tableId, this.frameSources.get(lease.tableId)!, this.evidence)
        : undefined,
    });
    await runtime.start();
    this.runtimes.set(lease.tableId, runtime);
    this.logger.log(
      `Table ${lease.tableId} is running: ${lease.epoch === 1 ? 'taken fresh (its first lease)' : `${lease.handedOver ? 'handed over by its previous holder' : 'taken without a handover (the previous holder did not release it)'}, lease epoch ${lease.epoch}`}`,
    );
    await this.tell((l) => l.running(lease.tableId));
  }

  instanceGone(instanceId: string): void {
    if (!this.windowHold || this.windowHold.holdMs <= 0) return;
    this.windowHold.instanceGone();
    this.logger.warn(
      `Instance "${instanceId}" is gone: the betting and decision windows closing in the next ${this.windowHold.holdMs} ms stay open until then, for the commands sent in time on its Kafka partitions`,
    );
  }

  async lost(tableId: string): Promise<void> {
    const runtime = this.runtimes.get(tableId);
    if (!runtime) return;
    // Its scanner is closed first, while the table still takes its last readings; the stop then
    // lets everything queued finish: every reading received is committed before the release.
    await this.tell((l) => l.stopping(tableId));
    this.runtimes.delete(tableId);
    await runtime.stop();
  }

  private async tell(call: (listener: DrivenTablesListener) => Promise<void> | void) {
    for (const listener of this.drivenListeners) {
      try {
        await call(listener);
      } catch (error) {
        this.logger.error(`A listener of driven tables failed: ${oneLine(error)}`);
      }
    }
  }
}
