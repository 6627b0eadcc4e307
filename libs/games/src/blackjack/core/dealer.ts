import { CardCode, isTenValue } from '@studio/cards';
import { handTotal, rankOf } from './hand';
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
