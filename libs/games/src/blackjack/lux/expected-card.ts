import { CardCode } from '@studio/cards';
import { dealerCards } from '../core/dealer';
import { PromptEffect } from '../core/engine';
import { handAwaitingCard, playerStatus } from '../core/player-hands';
import { LuxSeat, LuxState } from './state';

// ---- cards ---------------------------------------------------------------------------------------

export type LuxExpectedCard =
  | {
      readonly slot: 'seat';
      readonly seat: number;
      readonly hand: number;
      readonly position: number;
    }
  | { readonly slot: 'dealer-up' }
  | { readonly slot: 'dealer-hole' }
  | { readonly slot: 'dealer-draw'; readonly position: number };

export function luxExpectedCard(state: LuxState): LuxExpectedCard | null {
  if (state.phase === 'dealing') {
    const slot = state.dealOrder[state.dealt];
    if (slot === 'dealer-up' || slot === 'dealer-hole') return { slot };
    const seat = state.seats[slot.seat - 1];
    return { slot: 'seat', seat: slot.seat, hand: 0, position: seat.hands[0].cards.length + 1 };
  }
  if (state.phase === 'playing') {
    const seat = currentSeat(state);
    if (!seat) return null;
    const h = handAwaitingCard(seat);
    return h < 0
      ? null
      : { slot: 'seat', seat: seat.seat, hand: h, position: seat.hands[h].cards.length + 1 };
  }
  if (state.phase === 'dealer')
    return { slot: 'dealer-draw', position: luxDealerCards(state).length + 1 };
  return null;
}

export function luxDealerCards(state: LuxState): CardCode[] {
  return dealerCards(state.dealer);
}

/** The seat whose turn it is: the lowest-numbered seat still playing. */
export function currentSeat(state: LuxState): LuxSeat | null {
  return state.seats.find((s) => s.active && playerStatus(s) !== 'done') ?? null;
}
export function prompt(state: LuxState): PromptEffect {
  const slot = luxExpectedCard(state);
  const message = !slot
    ? 'wait'
    : slot.slot === 'seat'
      ? `deal card ${slot.position} to seat ${slot.seat}${slot.hand ? ` hand ${slot.hand + 1}` : ''}`
      : slot.slot === 'dealer-draw'
        ? `draw dealer card ${slot.position}`
        : `deal the dealer ${slot.slot === 'dealer-up' ? 'up card' : 'hole card (face down)'}`;
  return { type: 'prompt', message };
}
