import { StrategyRules } from './rules';

/**
 * Expected values of blackjack decisions for a rules variant, computed from the finite shoe.
 *
 * A composition is the count of each card value left in the shoe: index 0 = ace, 1..8 = 2..9,
 * 9 = ten-value. Everything is plain arithmetic on these counts (no randomness, no I/O), so the
 * generated strategy is reproducible from the rules alone.
 *
 * Method (documented in docs/blackjack-verification.md):
 * - Dealer final totals are enumerated exactly, card by card, from the composition left after the
 *   player's cards and the up card, conditioned on the dealer not holding BJ.
 * - A hand's stand / hit / double values are exact for that composition: every hit card is removed
 *   from the shoe before the dealer's distribution is taken.
 * - Splits use the usual re-split approximation: the chance of drawing another pair card is taken
 *   from the composition after the split, and each split hand is valued exactly for its second card.
 * - A dealer BJ (probability q) is folded in at the root: value = (1 - q) * EV(no dealer BJ) - q.
 *   Without peek and with 'all-stakes', each extra unit staked by a double or a split also loses
 *   when the dealer has BJ; that is charged as kappa = q / (1 - q) per extra unit inside the
 *   no-BJ world, so the optimal double/split decisions account for it.
 * - The player's own hit cards are drawn from the shoe without conditioning on the hidden card
 *   (a standard simplification; its effect is far below the simulation's confidence interval).
 */
export type Composition = number[];

export const ACE = 0;
export const TEN = 9;

/** Card values 1..10 for composition indices 0..9. */
export function valueOfIndex(i: number): number {
  return i + 1;
}

export function fullShoe(decks: number): Composition {
  return Array.from({ length: 10 }, (_, i) => (i === TEN ? 16 * decks : 4 * decks));
}

export function cardsIn(comp: Composition): number {
  let n = 0;
  for (const c of comp) n += c;
  return n;
}

/** A hand's total as the rules count it: an ace counts 11 when that does not bust the hand. */
export function countedTotal(hardTotal: number, hasAce: boolean): { total: number; soft: boolean } {
  if (hasAce && hardTotal + 10 <= 21) return { total: hardTotal + 10, soft: true };
  return { total: hardTotal, soft: false };
}

/** Dealer outcome slots: 0..4 = final 17..21, 5 = bust. */
const BUST = 5;

/** The card value index that completes a dealer BJ under this up card, or -1. */
export function blackjackHoleIndex(upIndex: number): number {
  if (upIndex === ACE) return TEN;
  if (upIndex === TEN) return ACE;
  return -1;
}

/**
 * The dealer's final-total distribution for one up card, from a composition that no longer holds
 * the up card, given that the dealer does not have BJ. Memoised per composition.
 */
export class DealerDistribution {
  private readonly memo = new Map<string, Float64Array>();

  constructor(
    private readonly upIndex: number,
    private readonly hitsSoft17: boolean,
  ) {}

  get(comp: Composition, key: string): Float64Array {
    let out = this.memo.get(key);
    if (!out) {
      out = new Float64Array(6);
      const work = comp.slice();
      this.draw(work, cardsIn(work), valueOfIndex(this.upIndex), this.upIndex === ACE, 1, 1, out);
      this.memo.set(key, out);
    }
    return out;
  }

  private draw(
    comp: Composition,
    n: number,
    hard: number,
    hasAce: boolean,
    cardCount: number,
    p: number,
    out: Float64Array,
  ): void {
    if (cardCount >= 2) {
      const { total, soft } = countedTotal(hard, hasAce);
      if (total > 21) {
        out[BUST] += p;
        return;
      }
      if (total >= 17 && !(this.hitsSoft17 && soft && total === 17)) {
        out[total - 17] += p;
        return;
      }
    }
    // The hole card (second dealer card) cannot complete a BJ in the no-BJ world.
    const excluded = cardCount === 1 ? blackjackHoleIndex(this.upIndex) : -1;
    const denominator = excluded >= 0 ? n - comp[excluded] : n;
    for (let i = 0; i < 10; i += 1) {
      const count = comp[i];
      if (count === 0 || i === excluded) continue;
      comp[i] = count - 1;
      this.draw(
        comp,
        n - 1,
        hard + i + 1,
        hasAce || i === ACE,
        cardCount + 1,
        (p * count) / denominator,
        out,
      );
      comp[i] = count;
    }
  }
}

/** Value of standing on a total against a dealer distribution (no dealer BJ). */
export function standValue(total: number, dealer: Float64Array): number {
  if (total > 21) return -1;
  let ev = dealer[BUST];
  for (let d = 17; d <= 21; d += 1) {
    const p = dealer[d - 17];
    if (total > d) ev += p;
    else if (total < d) ev -= p;
  }
  return ev;
}

export interface HandValues {
  readonly stand: number;
  readonly hit: number;
  /** Undefined when doubling is not allowed on this hand. */
  readonly double?: number;
}

/**
 * A fixed way of playing after the first decision (a strategy table read by total), used to value
 * the table as it is actually played instead of the best play for every composition.
 */
export type PlayPolicy = (
  total: number,
  soft: boolean,
  mayDouble: boolean,
) => 'stand' | 'hit' | 'double';

/**
 * Values of playing hands against one up card, in the no-dealer-BJ world. `kappa` is the charge per
 * extra unit staked (see the file comment). Without a policy, later decisions are the best for
 * each composition; with one, they follow it.
 */
export class HandEvaluator {
  readonly dealer: DealerDistribution;
  private readonly hitMemo = new Map<string, number>();

  /** Charge per extra unit staked; set per starting hand (it depends on that hand's q). */
  kappa = 0;

  constructor(
    readonly rules: StrategyRules,
    readonly upIndex: number,
    private readonly policy?: PlayPolicy,
  ) {
    this.dealer = new DealerDistribution(upIndex, rules.dealerHitsSoft17);
  }

  private key(comp: Composition): string {
    return comp.join(',');
  }

  stand(hard: number, hasAce: boolean, comp: Composition): number {
    const { total } = countedTotal(hard, hasAce);
    if (total > 21) return -1;
    return standValue(total, this.dealer.get(comp, this.key(comp)));
  }

  /** Best of hit and stand for a hand that may no longer double or split. */
  bestHitStand(hard: number, hasAce: boolean, comp: Composition): number {
    const { total } = countedTotal(hard, hasAce);
    if (total > 21) return -1;
    const stand = this.stand(hard, hasAce, comp);
    if (total === 21) return stand;
    if (this.policy) {
      const { soft } = countedTotal(hard, hasAce);
      return this.policy(total, soft, false) === 'stand' ? stand : this.hit(hard, hasAce, comp);
    }
    return Math.max(stand, this.hit(hard, hasAce, comp));
  }

  /** Value of taking one card and then playing hit/stand optimally. */
  hit(hard: number, hasAce: boolean, comp: Composition): number {
    const memoKey = `${this.key(comp)}|${hard}|${hasAce ? 1 : 0}`;
    const known = this.hitMemo.get(memoKey);
    if (known !== undefined) return known;
    const n = cardsIn(comp);
    let ev = 0;
    for (let i = 0; i < 10; i += 1) {
      const count = comp[i];
      if (count === 0) continue;
      comp[i] = count - 1;
      ev += (count / n) * this.bestHitStand(hard + i + 1, hasAce || i === ACE, comp);
      comp[i] = count;
    }
    this.hitMemo.set(memoKey, ev);
    return ev;
  }

  /** Value of doubling: one card, twice the stake, charged kappa for the extra unit. */
  double(hard: number, hasAce: boolean, comp: Composition): number {
    const n = cardsIn(comp);
    let ev = 0;
    for (let i = 0; i < 10; i += 1) {
      const count = comp[i];
      if (count === 0) continue;
      comp[i] = count - 1;
      ev += (count / n) * this.stand(hard + i + 1, hasAce || i === ACE, comp);
      comp[i] = count;
    }
    return 2 * ev - this.kappa;
  }

  values(hard: number, hasAce: boolean, comp: Composition, mayDouble: boolean): HandValues {
    return {
      stand: this.stand(hard, hasAce, comp),
      hit: this.hit(hard, hasAce, comp),
      double: mayDouble ? this.double(hard, hasAce, comp) : undefined,
    };
  }

  /**
   * Value of splitting a pair (composition without both pair cards and the up card), in the
   * no-BJ world, including kappa for each extra hand's stake.
   */
  split(pairIndex: number, comp: Composition): { value: number; expectedHands: number } {
    const n = cardsIn(comp);
    const pairValue = pairIndex + 1;
    if (pairIndex === ACE) {
      // Split aces take one card each and are closed; 21 is not BJ; aces are split once only.
      let perHand = 0;
      for (let i = 0; i < 10; i += 1) {
        const count = comp[i];
        if (count === 0) continue;
        comp[i] = count - 1;
        perHand += (count / n) * this.stand(1 + i + 1, true, comp);
        comp[i] = count;
      }
      return { value: 2 * perHand - this.kappa, expectedHands: 2 };
    }
    const best = (hard: number, hasAce: boolean, c: Composition): number => {
      const v = this.values(hard, hasAce, c, this.rules.doubleAfterSplit);
      const { total, soft } = countedTotal(hard, hasAce);
      if (this.policy && total < 21) {
        const a = this.policy(total, soft, this.rules.doubleAfterSplit);
        return a === 'double' ? v.double! : a === 'hit' ? v.hit : v.stand;
      }
      return Math.max(v.stand, v.hit, v.double ?? -Infinity);
    };
    const pPair = comp[pairIndex] / n;
    let nonPair = 0;
    for (let i = 0; i < 10; i += 1) {
      const count = comp[i];
      if (count === 0 || i === pairIndex) continue;
      comp[i] = count - 1;
      nonPair += (count / n) * best(pairValue + i + 1, pairIndex === ACE || i === ACE, comp);
      comp[i] = count;
    }
    const eNonPair = pPair < 1 ? nonPair / (1 - pPair) : 0;
    comp[pairIndex] -= 1;
    const ePair = comp[pairIndex] >= 0 ? best(2 * pairValue, false, comp) : 0;
    comp[pairIndex] += 1;
    const { nonPairHands, pairHands } = expectedSplitHands(pPair, this.rules.maxHands);
    const hands = nonPairHands + pairHands;
    return {
      value: nonPairHands * eNonPair + pairHands * ePair - this.kappa * (hands - 1),
      expectedHands: hands,
    };
  }
}

/**
 * Expected numbers of final split hands that hold a non-pair second card and a pair they could
 * not split again, starting from one split (two hands) with re-splits up to maxHands.
 */
export function expectedSplitHands(
  pPair: number,
  maxHands: number,
): { nonPairHands: number; pairHands: number } {
  const go = (pending: number, hands: number): [number, number] => {
    if (pending === 0) return [0, 0];
    const [a, b] = go(pending - 1, hands);
    const noPair: [number, number] = [1 + a, b];
    if (hands < maxHands) {
      const [c, d] = go(pending + 1, hands + 1);
      return [(1 - pPair) * noPair[0] + pPair * c, (1 - pPair) * noPair[1] + pPair * d];
    }
    return [(1 - pPair) * noPair[0] + pPair * a, (1 - pPair) * noPair[1] + pPair * (1 + b)];
  };
  const [nonPairHands, pairHands] = go(2, 2);
  return { nonPairHands, pairHands };
}

export type RootAction = 'stand' | 'hit' | 'double' | 'split' | 'surrender';

/** Unconditional values (per unit of the original stake) of each first decision on a 2-card hand. */
export interface StartingHandValues {
  readonly firstIndex: number;
  readonly secondIndex: number;
  readonly upIndex: number;
  /** Probability of the dealer holding BJ given these three cards. */
  readonly q: number;
  readonly blackjack: boolean;
  readonly values: Partial<Record<RootAction, number>>;
}

/**
 * Evaluates every first decision of one starting hand against one up card. `evaluator` must have
 * been built for these rules and this up card (callers share it across hands for memoisation).
 */
export function evaluateStartingHand(
  rules: StrategyRules,
  shoe: Composition,
  firstIndex: number,
  secondIndex: number,
  upIndex: number,
  evaluator: HandEvaluator,
): StartingHandValues {
  const comp = shoe.slice();
  comp[firstIndex] -= 1;
  comp[secondIndex] -= 1;
  comp[upIndex] -= 1;
  const n = cardsIn(comp);
  const bjIndex = blackjackHoleIndex(upIndex);
  const q = bjIndex >= 0 ? comp[bjIndex] / n : 0;
  const blackjack =
    (firstIndex === ACE && secondIndex === TEN) || (firstIndex === TEN && secondIndex === ACE);
  if (blackjack) {
    return {
      firstIndex,
      secondIndex,
      upIndex,
      q,
      blackjack,
      values: { stand: (1 - q) * rules.blackjackPays },
    };
  }
  const chargesExtraStakes = rules.holeCard === 'no-peek' && rules.noPeekLoss === 'all-stakes';
  const kappa = chargesExtraStakes && q < 1 ? q / (1 - q) : 0;
  const ev = evaluator;
  ev.kappa = kappa;
  const hard = firstIndex + 1 + secondIndex + 1;
  const hasAce = firstIndex === ACE || secondIndex === ACE;
  const world = ev.values(hard, hasAce, comp, true);
  const root = (noBj: number): number => (1 - q) * noBj - q;
  const values: Partial<Record<RootAction, number>> = {
    stand: root(world.stand),
    hit: root(world.hit),
    double: root(world.double!),
  };
  if (firstIndex === secondIndex && rules.maxHands >= 2) {
    values.split = root(ev.split(firstIndex, comp).value);
  }
  if (rules.surrender === 'late') values.surrender = root(-0.5);
  if (rules.surrender === 'early') values.surrender = -0.5;
  return { firstIndex, secondIndex, upIndex, q, blackjack, values };
}

/** Probability of dealing this ordered-independent starting hand and up card from the shoe. */
export function startingHandWeight(
  shoe: Composition,
  firstIndex: number,
  secondIndex: number,
  upIndex: number,
): number {
  const comp = shoe.slice();
  let n = cardsIn(comp);
  let p = 1;
  for (const i of [firstIndex, secondIndex, upIndex]) {
    p *= comp[i] / n;
    comp[i] -= 1;
    n -= 1;
  }
  return firstIndex === secondIndex ? p : 2 * p;
}
