import { TableDefinition, tableCurrencyCodes } from '../config/tables-config';
import type { TableScannerState } from '../scanner/scanner.service';
import type { TableRuntime } from '../tables/table-runtime';
import { tableView } from '../tables/table-view';
import { CardsOf, consoleCards, StoredCard } from './console-cards';
import { consoleHands, seatHandSizesOf } from './console-hands';

export type ConsoleTableSnapshot = ReturnType<typeof consoleTableSnapshot>;

type RuntimeWait = Pick<TableRuntime, 'databaseWait'>;

/**
 * What a console shows of one table: the role-filtered table view plus the cards of the round,
 * the reader's status and the rescan limit (so "attempt 2 of 5" can be shown). `serverTime` lets
 * the page run countdowns on the service's clock rather than the screen's.
 */
export function consoleTableSnapshot(input: {
  table: TableDefinition;
  runtime: (Pick<TableRuntime, 'snapshot' | 'machine'> & Partial<RuntimeWait>) | undefined;
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
  // The engine's view knows which hand a split card went to: the round's own while it runs, and
  // the last round's for a game that keeps its engine between rounds (Lux, for its seats).
  const state = runtime?.snapshot;
  const engineView =
    input.cardsOf === 'round' && 'round' in view
      ? view.round?.view
      : input.cardsOf === 'last-round' && state?.previousEngine !== undefined
        ? lastRoundView(runtime!, state.previousEngine, state.lastRoundId)
        : undefined;
  return {
    ...view,
    /** Every currency the table takes, its default (`currency`) first: bets may be in any. */
    currencies: tableCurrencyCodes(table),
    rescanLimit: runtime ? runtime.machine.settings.ingestion.maxFailedAttempts : null,
    cards,
    /** The same cards grouped by hand, with totals of what this viewer may see. */
    hands: consoleHands(table.game, cards, seatHandSizesOf(engineView)),
    cardsOf: input.cardsOf,
    scanner: scanner
      ? {
          status: scanner.status,
          since: scanner.since,
          reason: scanner.reason,
          virtual: scanner.virtual,
        }
      : null,
    /**
     * Card readings this instance holds for the database (since when, how many): the table
     * applies them in order once it is back, and takes nothing else meanwhile, so the dealer is
     * told to stop dealing and not to scan those cards again. Null otherwise.
     */
    databaseWait: runtime?.databaseWait ?? null,
    serverTime: input.now.toISOString(),
  };
}

/** The engine's public view of the round that just ended, if the engine it kept is that round's. */
function lastRoundView(
  runtime: Pick<TableRuntime, 'machine'>,
  engine: unknown,
  lastRoundId: string | undefined,
): unknown {
  const view = runtime.machine.adapter.publicView(engine) as { roundId?: unknown } | null;
  return view?.roundId === lastRoundId ? view : undefined;
}
