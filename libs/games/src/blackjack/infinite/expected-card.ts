import { CardCode } from '@studio/cards';
import { dealerCards } from '../core/dealer';
import { PromptEffect } from '../core/engine';
import { InfiniteState } from './state';

/** The card slot the engine expects next, for the dealer console and the reading router. */
export type InfiniteExpectedCard =
  | { readonly slot: 'player'; readonly position: number }
  | { readonly slot: 'dealer-up' }
  | { readonly slot: 'dealer-hole' }
  | { readonly slot: 'common-draw'; readonly position: number }
  | { readonly slot: 'dealer-draw'; readonly position: number };

export function infiniteExpectedCard(state: InfiniteState): InfiniteExpectedCard | null {
  switch (state.phase) {
    case 'dealing': {
      const slot = state.config.dealOrder[state.dealt];
      return slot === 'player'
        ? { slot, position: state.playerCards.length + 1 }
        : { slot: slot === 'dealer-up' ? 'dealer-up' : 'dealer-hole' };
    }
    case 'drawing':
      return { slot: 'common-draw', position: state.commonDraws.length + 1 };
    case 'dealer':
      return { slot: 'dealer-draw', position: infiniteDealerCards(state).length + 1 };
    default:
      return null;
  }
}

export function infiniteDealerCards(state: InfiniteState): CardCode[] {
  return dealerCards(state.dealer);
}

/** What the dealer console shows: the card to deal next, or wait. */
export function prompt(state: InfiniteState): PromptEffect {
  const slot = infiniteExpectedCard(state);
  const what = !slot
    ? 'wait'
    : slot.slot === 'player'
      ? `deal player card ${slot.position}`
      : slot.slot === 'common-draw'
        ? `draw card ${slot.position} to the common area`
        : slot.slot === 'dealer-draw'
          ? `draw dealer card ${slot.position}`
          : `deal the dealer ${slot.slot === 'dealer-up' ? 'up card' : 'hole card (face down)'}`;
  return { type: 'prompt', message: what };
}
