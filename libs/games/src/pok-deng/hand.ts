import { Card, isFaceCard, Rank } from '@studio/cards';

/** games.md section 5: A = 1, 2-9 face value, T/J/Q/K = 0. */
export const POK_DENG_POINTS: Readonly<Record<Rank, number>> = {
  A: 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 0,
  J: 0,
  Q: 0,
  K: 0,
};

export type SpecialCombination =
  | 'suited-ace-king'
  | 'special-pair'
  | 'picture-pair'
  | 'single-picture-no-point'
  | 'flush-no-point';

interface CombinationRule {
  readonly combination: SpecialCombination;
  /** Score in tenths of a point: 75 is "7.5". Combinations rank between 7 (70) and 8 (80). */
  readonly score: number;
  readonly matches: (a: Card, b: Card, points: number) => boolean;
}

const SPECIAL_PAIR_RANKS: readonly Rank[] = ['A', '5', '6', 'T'];

/** The five special combinations, highest first; a hand takes the first that matches. */
export const SPECIAL_COMBINATIONS: readonly CombinationRule[] = [
  {
    combination: 'suited-ace-king',
    score: 75,
    matches: (a, b) =>
      a.suit === b.suit &&
      ((a.rank === 'A' && b.rank === 'K') || (a.rank === 'K' && b.rank === 'A')),
  },
  {
    combination: 'special-pair',
    score: 74,
    matches: (a, b) => a.rank === b.rank && SPECIAL_PAIR_RANKS.includes(a.rank),
  },
  {
    combination: 'picture-pair',
    score: 73,
    matches: (a, b) => isFaceCard(a.rank) && isFaceCard(b.rank),
  },
  {
    combination: 'single-picture-no-point',
    score: 72,
    matches: (a, b) =>
      (a.rank === 'T' && isFaceCard(b.rank)) || (b.rank === 'T' && isFaceCard(a.rank)),
  },
  {
    combination: 'flush-no-point',
    score: 71,
    matches: (a, b, points) =>
      a.suit === b.suit && !isFaceCard(a.rank) && !isFaceCard(b.rank) && points === 0,
  },
];

export interface HandEvaluation {
  /** Last digit of the sum of the two cards' points, 0..9. */
  readonly points: number;
  readonly combination: SpecialCombination | null;
  /** Comparable score in tenths of a point: points × 10, or 71..75 for a combination. */
  readonly score: number;
  /** Both cards of the same suit. */
  readonly flush: boolean;
  /** Both cards of the same rank. */
  readonly pair: boolean;
  /** A flush, a pair or a special combination: what makes wins and losses 2:1. */
  readonly specialPattern: boolean;
}

export function evaluateHand(first: Card, second: Card): HandEvaluation {
  const points = (POK_DENG_POINTS[first.rank] + POK_DENG_POINTS[second.rank]) % 10;
  const flush = first.suit === second.suit;
  const pair = first.rank === second.rank;
  // A hand that scores 8 or 9 by points keeps that score (8C JC is 8, not a combination).
  const rule =
    points >= 8 ? undefined : SPECIAL_COMBINATIONS.find((r) => r.matches(first, second, points));
  return {
    points,
    combination: rule?.combination ?? null,
    score: rule?.score ?? points * 10,
    flush,
    pair,
    specialPattern: flush || pair || rule !== undefined,
  };
}

/** 1 when `a` beats `b`, -1 when `b` beats `a`, 0 for a tie (equal scores push). */
export function compareHands(a: HandEvaluation, b: HandEvaluation): -1 | 0 | 1 {
  return a.score > b.score ? 1 : a.score < b.score ? -1 : 0;
}

/** "7.4", "8", "0": how the table shows a score. */
export function formatScore(score: number): string {
  return score % 10 === 0 ? String(score / 10) : `${Math.floor(score / 10)}.${score % 10}`;
}
