import { Logger } from '@nestjs/common';
import { oneLine } from '../common/one-line';
import { MachineOutcome, runningPhase } from '../table-core/table-machine';
import { TableRuntimeRegistry } from './table-runtime.registry';

/** What the virtual dealer needs from the scanners: deal the next card of a table's virtual shoe. */
export interface VirtualShoeControl {
  isVirtual(tableId: string): boolean;
  dealVirtualCard(tableId: string): Promise<void>;
  /** Reshuffles the table's virtual shoe when the table starts a new shoe. */
  newVirtualShoe?(tableId: string, shoeNumber: number): Promise<void> | void;
  /** Continues a part-dealt shoe (restart, takeover) without the cards the table counted. */
  resumeVirtualShoe?(tableId: string, shoeNumber: number, counts: readonly number[]): void;
}

/**
 * Plays the dealer at demo tables: whenever a table fed by a virtual shoe expects a card, the next
 * card is scanned after a human-like pause, and the cut card comes out near the end of the shoe.
 * Real tables have a real dealer; this only ever touches tables whose scanner is virtual.
 */
export class VirtualDealer {
  private readonly logger = new Logger('VirtualDealer');
  /** Tables where a scanned card has not been read yet, with the give-up timer. */
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly shoes = new Map<string, string>();
  /** Per table: the shoe whose cut card was drawn (once; a second one would only be refused). */
  private readonly cutCards = new Map<string, string>();
  private stopped = false;

  constructor(
    private readonly registry: TableRuntimeRegistry,
    private readonly shoes$: VirtualShoeControl,
    private readonly paceMs: number,
    /** Share of the shoe after which the cut card comes out. */
    private readonly cutCardAt = 0.75,
  ) {
    // A table taken over mid-round continues without a transition of its own (nothing to pause):
    // the card it waits for is dealt as when the instance started. What this instance remembered
    // of a table it drove before is stale: another instance may have dealt on from its shoe (or
    // started a new one) meanwhile, so the shoe is taken up again from the table's own counts.
    registry.onDriven({
      running: (tableId) => {
        this.forget(tableId);
        this.onTransition(tableId);
      },
      stopping: (tableId) => this.forget(tableId),
    });
  }

  private forget(tableId: string): void {
    this.shoes.delete(tableId);
    clearTimeout(this.pending.get(tableId));
    this.pending.delete(tableId);
  }

  /** Call after every committed transition (and once per table at start). */
  onTransition(tableId: string, outcome?: MachineOutcome): void {
    if (this.stopped || !this.shoes$.isVirtual(tableId)) return;
    const lookup = this.registry.get(tableId);
    if (!lookup.ok) return;
    const runtime = lookup.runtime;
    const state = runtime.snapshot;
    const shoe = state.shoe;
    if (shoe && this.shoes.get(tableId) !== shoe.id) {
      const first = !this.shoes.has(tableId);
      this.shoes.set(tableId, shoe.id);
      // A fresh shoe at the table means the physical one was reshuffled (not at service start).
      if (!first || shoe.state.cardsDrawn === 0) {
        Promise.resolve(this.shoes$.newVirtualShoe?.(tableId, shoe.state.shoeNumber)).catch(
          () => undefined, // the scanner logs it; the old order then deals on
        );
      } else {
        // Restart or takeover mid-shoe: go on from where the table's shoe stands.
        this.shoes$.resumeVirtualShoe?.(tableId, shoe.state.shoeNumber, state.ingestion.counts);
      }
    }
    if (
      shoe &&
      runningPhase(state).kind === 'in-round' &&
      shoe.state.lastRoundNumber === null &&
      shoe.state.cardsDrawn >= shoe.state.rules.deckCount * 52 * this.cutCardAt &&
      this.cutCards.get(tableId) !== shoe.id
    ) {
      this.cutCards.set(tableId, shoe.id);
      // Not committed (the database is away) or refused (paused): tried again after the next
      // transition.
      const again = () => this.cutCards.delete(tableId);
      runtime
        .submit({ type: 'cut-card', by: 'virtual-dealer' })
        .then((r) => r.accepted || r.code === 'cut-card-already-drawn' || again())
        .catch(again);
    }
    // The card we scanned has been read by the table (applied or refused): the next may follow.
    const cardRead = outcome?.writes.events.some(
      (e) => e.type === 'ReadingProcessed' && e.payload.kind === 'card',
    );
    const waiting = this.pending.get(tableId);
    if (waiting && cardRead) {
      clearTimeout(waiting);
      this.pending.delete(tableId);
    }
    if (
      state.phase.kind === 'paused' ||
      !runtime.machine.expected(state) ||
      this.pending.has(tableId)
    )
      return;
    // Until the table reports the card read, deal nothing more; give up waiting after a while
    // (a card lost on a disconnected line), like a dealer who scans again.
    this.pending.set(
      tableId,
      setTimeout(() => {
        this.pending.delete(tableId);
        this.onTransition(tableId);
      }, this.paceMs + 3_000),
    );
    setTimeout(() => {
      if (this.stopped) return;
      // The round may have ended meanwhile (a void): a dealer then keeps the card in the shoe.
      if (!runtime.machine.expected(runtime.snapshot)) {
        clearTimeout(this.pending.get(tableId));
        this.pending.delete(tableId);
        return;
      }
      this.shoes$
        .dealVirtualCard(tableId)
        .catch((error) => this.logger.warn(`Table ${tableId}: ${oneLine(error)}`));
    }, this.paceMs);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
