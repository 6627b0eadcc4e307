import type { TableDefinition } from '../config/tables-config';
import type { TableScannerState } from '../scanner/scanner.service';
import type { TableRuntime } from '../tables/table-runtime';
import { tableView } from '../tables/table-view';

/** A card of the current round (or of the shoe's burn) as stored in round_cards. */
export interface StoredCard {
  slot: string;
  card: string;
  faceDown: boolean;
  revealedAt: string | null;
}

/** Whose cards a console shows: the round in progress, the shoe's burn, or the round just ended. */
export type CardsOf = 'round' | 'burn' | 'last-round' | 'none';

/** A card as a console draws it: `card` is null for a face-down card the viewer may not see. */
export interface ConsoleCard {
  slot: string;
  /** Still face down at the table (drawn as a back on the dealer's console). */
  hidden: boolean;
  card: string | null;
}

/**
 * Face-down cards (Pok Deng hands before the reveal, hole cards, burnt cards) lose their value for
 * everyone but supervisors, who need them to correct a mis-scan.
 */
export function consoleCards(rows: readonly StoredCard[], privileged: boolean): ConsoleCard[] {
  return rows.map((row) => {
    const hidden = row.faceDown && row.revealedAt === null;
    return { slot: row.slot, hidden, card: hidden && !privileged ? null : row.card };
  });
}

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
  return {
    ...tableView(table, runtime as TableRuntime | undefined, privileged),
    rescanLimit: runtime ? runtime.machine.settings.ingestion.maxFailedAttempts : null,
    cards: consoleCards(input.cards, privileged),
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
