import { CardCode, cardCode, cardFromIndex, CARDS_PER_DECK } from '@studio/cards';
import {
  BUST_BONUS_PAYTABLE,
  evaluateLuckyTrio,
  evaluateLuxPairs,
  evaluatePairs,
  evaluatePokerTrio,
  SideBetWin,
} from '../side-bets/side-bets';
import { countedTotal } from './ev';

/**
 * Exact returns of the side bets, by enumerating every card combination of an N-deck shoe
 * (card identity, suits included) through the side-bet evaluators themselves.
 */
export interface ExactReturn {
  /** Expected amount returned per unit staked (stake back plus winnings), as a fraction. */
  readonly rtp: number;
  /** Probability of each winning pattern. */
  readonly patterns: Readonly<Record<string, number>>;
}

function accumulate(
  patterns: Record<string, number>,
  win: SideBetWin | null,
  weight: number,
): number {
  if (!win) return 0;
  patterns[win.pattern] = (patterns[win.pattern] ?? 0) + weight;
  return weight * (1 + win.pays.a / win.pays.b);
}

const CODES: readonly CardCode[] = Array.from({ length: CARDS_PER_DECK }, (_, i) =>
  cardCode(cardFromIndex(i)),
);

/** A bet on the player's first two cards (Pairs). */
export function exactTwoCardReturn(
  decks: number,
  evaluate: (a: CardCode, b: CardCode) => SideBetWin | null,
): ExactReturn {
  const total = decks * CARDS_PER_DECK;
  const patterns: Record<string, number> = {};
  let rtp = 0;
  for (let a = 0; a < CARDS_PER_DECK; a += 1) {
    for (let b = 0; b < CARDS_PER_DECK; b += 1) {
      const w = (decks * (decks - (a === b ? 1 : 0))) / (total * (total - 1));
      rtp += accumulate(patterns, evaluate(CODES[a], CODES[b]), w);
    }
  }
  return { rtp, patterns };
}

/** A bet on the player's first two cards and the dealer's up card (Trios, Lux pairs). */
export function exactThreeCardReturn(
  decks: number,
  evaluate: (a: CardCode, b: CardCode, up: CardCode) => SideBetWin | null,
): ExactReturn {
  const total = decks * CARDS_PER_DECK;
  const patterns: Record<string, number> = {};
  const denominator = total * (total - 1) * (total - 2);
  let rtp = 0;
  for (let a = 0; a < CARDS_PER_DECK; a += 1) {
    for (let b = 0; b < CARDS_PER_DECK; b += 1) {
      const wb = decks * (decks - (a === b ? 1 : 0));
      for (let c = 0; c < CARDS_PER_DECK; c += 1) {
        const left = decks - (a === c ? 1 : 0) - (b === c ? 1 : 0);
        if (left <= 0) continue;
        rtp += accumulate(
          patterns,
          evaluate(CODES[a], CODES[b], CODES[c]),
          (wb * left) / denominator,
        );
      }
    }
  }
  return { rtp, patterns };
}

/**
 * Probability that the dealer busts with exactly k cards (index k; the last slot collects 8+),
 * by exact recursive enumeration of the dealer's draws from a full N-deck shoe (by card value,
 * since suits do not matter), standing on all 17s unless hitsSoft17. A dealer BJ is not a bust.
 */
export function dealerBustCardCounts(decks: number, hitsSoft17: boolean): number[] {
  const comp = Array.from({ length: 10 }, (_, i) => (i === 9 ? 16 * decks : 4 * decks));
  const out = new Array<number>(9).fill(0);
  const walk = (n: number, hard: number, ace: boolean, cards: number, p: number): void => {
    if (cards >= 2) {
      const { total, soft } = countedTotal(hard, ace);
      if (total > 21) {
        out[Math.min(cards, 8)] += p;
        return;
      }
      if (total >= 17 && !(hitsSoft17 && soft && total === 17)) return;
    }
    for (let i = 0; i < 10; i += 1) {
      const c = comp[i];
      if (c === 0) continue;
      comp[i] = c - 1;
      walk(n - 1, hard + i + 1, ace || i === 0, cards + 1, (p * c) / n);
      comp[i] = c;
    }
  };
  walk(decks * CARDS_PER_DECK, 0, false, 0, 1);
  return out;
}

/** Bust Bonus from the exact dealer bust-card-count distribution. */
export function exactBustBonusReturn(decks: number, hitsSoft17: boolean): ExactReturn {
  const counts = dealerBustCardCounts(decks, hitsSoft17);
  const patterns: Record<string, number> = {};
  let rtp = 0;
  for (let k = 3; k <= 8; k += 1) {
    const row = BUST_BONUS_PAYTABLE.find((r) => k >= r.cards)!;
    patterns[`dealer-bust-${k}-cards`] = counts[k];
    rtp += counts[k] * (1 + row.pays.a / row.pays.b);
  }
  return { rtp, patterns };
}

export interface SideBetReport {
  readonly name: string;
  readonly exact: ExactReturn;
}

/** Every side bet of games 1 and 2, exactly, for an N-deck shoe. */
export function exactSideBetReturns(decks: number, hitsSoft17 = false): SideBetReport[] {
  return [
    { name: 'pairs', exact: exactTwoCardReturn(decks, evaluatePairs) },
    { name: 'bust-bonus', exact: exactBustBonusReturn(decks, hitsSoft17) },
    { name: 'lucky-trio', exact: exactThreeCardReturn(decks, evaluateLuckyTrio) },
    { name: 'poker-trio', exact: exactThreeCardReturn(decks, evaluatePokerTrio) },
    { name: 'lux-pairs', exact: exactThreeCardReturn(decks, evaluateLuxPairs) },
  ];
}
