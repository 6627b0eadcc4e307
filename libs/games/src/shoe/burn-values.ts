import { Rank } from '@studio/cards';

/** How many further cards the first card of a new shoe makes the dealer burn, per rank. */
export type BurnValues = Readonly<Record<Rank, number>>;

/** games.md section 0: blackjack games burn A = 1, 2-10 face value, J/Q/K = 10. */
export const BLACKJACK_BURN_VALUES: BurnValues = {
  A: 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 10,
  J: 10,
  Q: 10,
  K: 10,
};

/**
 * games.md section 0: Pok Deng burns A = 1, 2-9 face value, T/J/Q/K = 10. Kept as its own table
 * even though the numbers equal blackjack's: Pok Deng *points* count T/J/Q/K as 0, and the burn
 * rule deliberately does not follow them.
 */
export const POK_DENG_BURN_VALUES: BurnValues = {
  A: 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 10,
  J: 10,
  Q: 10,
  K: 10,
};
