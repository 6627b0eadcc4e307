import { CardCode, isTenValue } from '@studio/cards';
import { handTotal, rankOf } from './hand';
import { event, EventEffect } from './engine';
import { BlackjackRules } from './rules';

/** Hits 16 or less; stands on 17 or more, soft 17 included unless the table says otherwise. */
export function dealerMustHit(cards: readonly CardCode[], rules: BlackjackRules): boolean {
  const { total, soft } = handTotal(cards);
  if (total < 17) return true;
  return total === 17 && soft && rules.dealerHitsSoft17;
}

/** With peek, the hole card is checked for BJ when the up card is an ace or ten-value. */
export function dealerPeeks(upCard: CardCode, rules: BlackjackRules): boolean {
  if (!rules.peek) return false;
  const r = rankOf(upCard);
  return r === 'A' || isTenValue(r);
}

export function insuranceOffered(upCard: CardCode, rules: BlackjackRules): boolean {
  return rules.insurance && rankOf(upCard) === 'A';
}

/** The dealer's cards as the blackjack tables hold them (the hole card face down until revealed). */
export interface DealerHand {
  readonly up: CardCode | null;
  readonly hole: CardCode | null;
  readonly holeRevealed: boolean;
  readonly draws: readonly CardCode[];
}

/** Every dealer card dealt so far, the hole card included (for settlement, never for a view). */
export function dealerCards(dealer: DealerHand): CardCode[] {
  const { up, hole, draws } = dealer;
  return [...(up ? [up] : []), ...(hole ? [hole] : []), ...draws];
}

/** Turns the hole card face up once, announcing it with the dealer's total. */
export function revealHoleCard<S extends { readonly dealer: DealerHand }>(
  state: S,
): { state: S; effects: EventEffect[] } {
  if (state.dealer.holeRevealed) return { state, effects: [] };
  const next = { ...state, dealer: { ...state.dealer, holeRevealed: true } };
  return {
    state: next,
    effects: [
      event('hole-card-revealed', {
        card: state.dealer.hole,
        dealerTotal: handTotal(dealerCards(next.dealer)).total,
      }),
    ],
  };
}
