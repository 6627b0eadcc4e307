import type { TableDefinition } from '../config/tables-config';
import type { TableScannerState } from '../scanner/scanner.service';
import type { TableRuntime } from '../tables/table-runtime';
import { tableView } from '../tables/table-view';
import { CardsOf, consoleCards, StoredCard } from './console-cards';
import { consoleHands, seatHandCountsOf } from './console-hands';

export type ConsoleTableSnapshot = ReturnType<typeof consoleTableSnapshot>;

/**
 * What a console shows of one table: the role-filtered table view plus the cards of the round,
 * the reader's status and the rescan limit (so "attempt 2 of 5" can be shown). `serverTime` lets
 * the page run countdowns on the service's clock rather than the screen's.
 */
export function consoleTableSnapshot(input: {
  table: TableDefinition;
  runtime: Pick<TableRuntime, 'snapshot' | 'machine'> | undefined;
  scanner: TableScannerState | undefined;
  cards: readonly StoredCard[];
  /** Whose cards these are: the round in progress, the shoe's burn or the round just ended. */
  cardsOf: CardsOf;
  privileged: boolean;
  now: Date;
}) {
  const { table, runtime, scanner, privileged } = input;
  const view = tableView(table, runtime as TableRuntime | undefined, privileged);
  const cards = consoleCards(input.cards, privileged);
  // The engine's view knows of a split whose new hand has no card yet; it is the round's own.
  const engineView = input.cardsOf === 'round' && 'round' in view ? view.round?.view : undefined;
  return {
    ...view,
    rescanLimit: runtime ? runtime.machine.settings.ingestion.maxFailedAttempts : null,
    cards,
    /** The same cards grouped by hand, with totals of what this viewer may see. */
    hands: consoleHands(table.game, cards, seatHandCountsOf(engineView)),
    cardsOf: input.cardsOf,
    scanner: scanner
      ? {
          status: scanner.status,
          since: scanner.since,
          reason: scanner.reason,
          virtual: scanner.virtual,
        }
      : null,
    serverTime: input.now.toISOString(),
  };
}
