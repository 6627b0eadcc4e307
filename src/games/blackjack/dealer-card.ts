import type { AdapterRejection, ExpectedCard } from '../game-adapter';

/** A dealer's card as the engines name it (Infinite and Lux alike). */
export type DealerCardSlot =
  | { readonly slot: 'dealer-up' }
  | { readonly slot: 'dealer-hole' }
  | { readonly slot: 'dealer-draw'; readonly position: number };

/** Where a dealer's card goes, as the table stores the slot and the dealer console says it. */
export function dealerSlot(e: DealerCardSlot): ExpectedCard {
  switch (e.slot) {
    case 'dealer-up':
      return { slot: 'dealer-up', label: 'Dealer up card, face up' };
    case 'dealer-hole':
      return { slot: 'dealer-hole', label: 'Dealer hole card, face down' };
    case 'dealer-draw':
      return { slot: `dealer/${e.position}`, label: `Dealer card ${e.position}` };
  }
}

/**
 * A supervisor corrects only the hole card, and only while no one has seen it: once the dealer
 * has checked it for blackjack, a different card could have changed the round.
 */
export function onlyTheHoleCard(): { rejected: AdapterRejection } {
  return {
    rejected: {
      code: 'not-correctable',
      message: 'Only the unrevealed hole card can be corrected',
    },
  };
}

export function holeCardChecked(): { rejected: AdapterRejection } {
  return {
    rejected: {
      code: 'not-correctable',
      message: 'The dealer already checked the hole card for blackjack; void the round instead',
    },
  };
}
