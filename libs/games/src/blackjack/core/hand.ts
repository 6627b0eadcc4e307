import { CardCode, isTenValue, Rank } from '@studio/cards';

/** A = 1 (counted 11 by the total when it fits), 2–9 face value, T/J/Q/K = 10. */
export function rankValue(rank: Rank): number {
  if (rank === 'A') return 1;
  if (isTenValue(rank)) return 10;
  return Number(rank);
}

export function rankOf(code: CardCode): Rank {
  return code[0] as Rank;
}

export function cardValue(code: CardCode): number {
  return rankValue(rankOf(code));
}

export interface HandTotal {
  readonly total: number;
  /** An ace is counted 11 in `total`. */
  readonly soft: boolean;
}

/** Each ace counts 11 if that does not take the total over 21, otherwise 1 (games.md §1). */
export function handTotal(cards: readonly CardCode[]): HandTotal {
  let hard = 0;
  let aces = 0;
  for (const c of cards) {
    const v = cardValue(c);
    hard += v;
    if (v === 1) aces += 1;
  }
  return totalFromHard(hard, aces > 0);
}

/** Total from the all-aces-as-one sum; only one ace can ever count 11. */
export function totalFromHard(hard: number, hasAce: boolean): HandTotal {
  return hasAce && hard + 10 <= 21
    ? { total: hard + 10, soft: true }
    : { total: hard, soft: false };
}

export function isBust(cards: readonly CardCode[]): boolean {
  return handTotal(cards).total > 21;
}

/** An ace and a ten-value card as the first two cards of a hand not created by a split. */
export function isBlackjack(cards: readonly CardCode[], fromSplit = false): boolean {
  if (fromSplit || cards.length !== 2) return false;
  const [a, b] = [rankOf(cards[0]), rankOf(cards[1])];
  return (a === 'A' && isTenValue(b)) || (b === 'A' && isTenValue(a));
}

/** The two cards may be split: equal value (T and K), or equal rank when the table says so. */
export function isSplittablePair(cards: readonly CardCode[], splitBy: 'value' | 'rank'): boolean {
  if (cards.length !== 2) return false;
  return splitBy === 'rank'
    ? rankOf(cards[0]) === rankOf(cards[1])
    : cardValue(cards[0]) === cardValue(cards[1]);
}
