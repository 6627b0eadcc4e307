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
