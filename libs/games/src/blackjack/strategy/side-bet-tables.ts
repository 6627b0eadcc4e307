import { CardCode, cardFromIndex, cardCode, CARDS_PER_DECK } from '@studio/cards';
import {
  evaluateBustBonus,
  evaluateLuckyTrio,
  evaluateLuxPairs,
  evaluatePairs,
  evaluatePokerTrio,
  SideBetWin,
} from '../side-bets/side-bets';

/** A payout table holds the multiple of the stake a combination wins, or NO_WIN. */
export const NO_WIN = -1;

function payoutTable(size: number, fill: (i: number) => SideBetWin | null): Int16Array {
  const t = new Int16Array(size);
  for (let i = 0; i < size; i += 1) {
    const w = fill(i);
    t[i] = w ? w.pays.a / w.pays.b : NO_WIN;
  }
  return t;
}

/** Side-bet payouts for every card combination, computed once with the side-bet evaluators. */
export class SideBetTables {
  readonly pairs: Int16Array;
  readonly luckyTrio: Int16Array;
  readonly pokerTrio: Int16Array;
  readonly luxPairs: Int16Array;
  /** Payout by dealer bust card count (index = cards), NO_WIN when the dealer did not bust. */
  readonly bustBonus: Int16Array;

  constructor() {
    const code = (i: number): CardCode => cardCode(cardFromIndex(i));
    const codes = Array.from({ length: CARDS_PER_DECK }, (_, i) => code(i));
    const n = CARDS_PER_DECK;
    this.pairs = payoutTable(n * n, (i) => evaluatePairs(codes[Math.floor(i / n)], codes[i % n]));
    const trio = (f: (a: CardCode, b: CardCode, c: CardCode) => SideBetWin | null) =>
      payoutTable(n * n * n, (i) =>
        f(codes[Math.floor(i / (n * n))], codes[Math.floor(i / n) % n], codes[i % n]),
      );
    this.luckyTrio = trio(evaluateLuckyTrio);
    this.pokerTrio = trio(evaluatePokerTrio);
    this.luxPairs = trio(evaluateLuxPairs);
    // A bust hand of k cards (two tens and twos); only the count matters to the pay table.
    this.bustBonus = payoutTable(16, (k) => {
      if (k < 3) return null;
      const hand: CardCode[] = ['TS', 'TH', ...Array<CardCode>(k - 2).fill('2S')];
      return evaluateBustBonus(hand);
    });
  }
}
