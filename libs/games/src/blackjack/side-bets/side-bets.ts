import { CardCode, isRed, Rank, RANKS, Suit } from '@studio/cards';
import { handTotal, rankOf } from '../core/hand';
import { Ratio } from '../core/rules';

/**
 * Side-bet patterns and pay tables (games.md §2 and §3). Each evaluator returns the highest
 * matching pattern only, or null when the bet loses.
 */

export const SIDE_BET_KINDS = [
  'pairs',
  'bust-bonus',
  'lucky-trio',
  'poker-trio',
  'lux-pairs',
] as const;
export type SideBetKind = (typeof SIDE_BET_KINDS)[number];

export interface SideBetWin<P extends string = string> {
  readonly pattern: P;
  readonly pays: Ratio;
}

const pays = (a: number): Ratio => ({ a, b: 1 });
const suitOf = (c: CardCode): Suit => c[1] as Suit;

// ---- Pairs (Infinite) and the Lux pair bet -------------------------------------------------------

export type PairPattern = 'mixed-pair' | 'coloured-pair' | 'perfect-pair';
export type LuxPairPattern = PairPattern | 'suited-trips';

export const PAIRS_PAYTABLE: Readonly<Record<PairPattern, Ratio>> = {
  'mixed-pair': pays(5),
  'coloured-pair': pays(10),
  'perfect-pair': pays(30),
};

export const LUX_PAIRS_PAYTABLE: Readonly<Record<LuxPairPattern, Ratio>> = {
  ...PAIRS_PAYTABLE,
  'suited-trips': pays(50),
};

export function pairPattern(first: CardCode, second: CardCode): PairPattern | null {
  if (rankOf(first) !== rankOf(second)) return null;
  const [s1, s2] = [suitOf(first), suitOf(second)];
  if (s1 === s2) return 'perfect-pair';
  return isRed(s1) === isRed(s2) ? 'coloured-pair' : 'mixed-pair';
}

export function evaluatePairs(first: CardCode, second: CardCode): SideBetWin<PairPattern> | null {
  const p = pairPattern(first, second);
  return p ? { pattern: p, pays: PAIRS_PAYTABLE[p] } : null;
}

/** The seated player's first two cards; the top pattern also uses the dealer's up card. */
export function evaluateLuxPairs(
  first: CardCode,
  second: CardCode,
  dealerUp: CardCode,
): SideBetWin<LuxPairPattern> | null {
  const p = pairPattern(first, second);
  if (!p) return null;
  const top: LuxPairPattern = p === 'perfect-pair' && dealerUp === first ? 'suited-trips' : p;
  return { pattern: top, pays: LUX_PAIRS_PAYTABLE[top] };
}

// ---- Bust Bonus --------------------------------------------------------------------------------

export const BUST_BONUS_PAYTABLE: readonly { readonly cards: number; readonly pays: Ratio }[] = [
  { cards: 8, pays: pays(250) }, // 8 or more
  { cards: 7, pays: pays(100) },
  { cards: 6, pays: pays(50) },
  { cards: 5, pays: pays(9) },
  { cards: 4, pays: pays(2) },
  { cards: 3, pays: pays(1) },
];

export type BustBonusPattern = `dealer-bust-${number}-cards`;

/** Wins when the dealer busts; pays by the number of cards in the bust hand. */
export function evaluateBustBonus(
  dealerCards: readonly CardCode[],
): SideBetWin<BustBonusPattern> | null {
  if (handTotal(dealerCards).total <= 21) return null;
  const row = BUST_BONUS_PAYTABLE.find((r) => dealerCards.length >= r.cards);
  if (!row) return null; // two cards cannot bust; kept for safety
  return { pattern: `dealer-bust-${Math.min(dealerCards.length, 8)}-cards`, pays: row.pays };
}

// ---- Lucky Trio ---------------------------------------------------------------------------------

export type LuckyTrioPattern =
  | 'total-19-or-20'
  | 'unsuited-21'
  | 'suited-21'
  | 'unsuited-6-7-8'
  | 'unsuited-7-7-7'
  | 'suited-6-7-8'
  | 'suited-7-7-7';

export const LUCKY_TRIO_PAYTABLE: Readonly<Record<LuckyTrioPattern, Ratio>> = {
  'total-19-or-20': pays(2),
  'unsuited-21': pays(3),
  'suited-21': pays(10),
  'unsuited-6-7-8': pays(30),
  'unsuited-7-7-7': pays(50),
  'suited-6-7-8': pays(100),
  'suited-7-7-7': pays(200),
};

const sortedRanks = (cs: readonly CardCode[]): string =>
  cs
    .map(rankOf)
    .sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b))
    .join('');

/** The player's first two cards plus the dealer's up card. */
export function evaluateLuckyTrio(
  first: CardCode,
  second: CardCode,
  dealerUp: CardCode,
): SideBetWin<LuckyTrioPattern> | null {
  const three = [first, second, dealerUp];
  const suited = three.every((c) => suitOf(c) === suitOf(first));
  const ranks = sortedRanks(three);
  const total = handTotal(three).total;
  let p: LuckyTrioPattern | null = null;
  if (ranks === '777') p = suited ? 'suited-7-7-7' : 'unsuited-7-7-7';
  else if (ranks === '678') p = suited ? 'suited-6-7-8' : 'unsuited-6-7-8';
  else if (total === 21) p = suited ? 'suited-21' : 'unsuited-21';
  else if (total === 19 || total === 20) p = 'total-19-or-20';
  return p ? { pattern: p, pays: LUCKY_TRIO_PAYTABLE[p] } : null;
}

// ---- Poker Trio ---------------------------------------------------------------------------------

export type PokerTrioPattern =
  'flush' | 'straight' | 'three-of-a-kind' | 'straight-flush' | 'suited-trips';

export const POKER_TRIO_PAYTABLE: Readonly<Record<PokerTrioPattern, Ratio>> = {
  flush: pays(5),
  straight: pays(10),
  'three-of-a-kind': pays(30),
  'straight-flush': pays(40),
  'suited-trips': pays(100),
};

/** Ace high or low: A-2-3 and Q-K-A are straights, K-A-2 is not. */
function isStraight(ranks: readonly Rank[]): boolean {
  const idx = ranks.map((r) => RANKS.indexOf(r)).sort((a, b) => a - b); // A=0 .. K=12
  const run = (xs: number[]) => xs[1] === xs[0] + 1 && xs[2] === xs[1] + 1;
  if (run(idx)) return true;
  return idx[0] === 0 && run([idx[1], idx[2], 13]); // ace high: Q-K-A
}

export function evaluatePokerTrio(
  first: CardCode,
  second: CardCode,
  dealerUp: CardCode,
): SideBetWin<PokerTrioPattern> | null {
  const three = [first, second, dealerUp];
  const ranks = three.map(rankOf);
  const suited = three.every((c) => suitOf(c) === suitOf(first));
  const trips = ranks.every((r) => r === ranks[0]);
  let p: PokerTrioPattern | null = null;
  if (trips) p = suited ? 'suited-trips' : 'three-of-a-kind';
  else if (isStraight(ranks)) p = suited ? 'straight-flush' : 'straight';
  else if (suited) p = 'flush';
  return p ? { pattern: p, pays: POKER_TRIO_PAYTABLE[p] } : null;
}

// ---- Round availability -------------------------------------------------------------------------

/**
 * Last round of the shoe on which each side bet is offered (games.md §2 "Round availability").
 * Shaped like the shoe library's `sideBetLastRound`; a kind not listed is offered in every round.
 */
export const SIDE_BET_LAST_ROUND: Readonly<Partial<Record<SideBetKind, number>>> = {
  pairs: 40,
  'bust-bonus': 45,
  'lucky-trio': 45,
  'poker-trio': 45,
};

export function isSideBetOffered(
  kind: SideBetKind,
  roundOfShoe: number,
  lastRound: Readonly<Partial<Record<SideBetKind, number>>> = SIDE_BET_LAST_ROUND,
): boolean {
  const last = lastRound[kind];
  return last === undefined || roundOfShoe <= last;
}
