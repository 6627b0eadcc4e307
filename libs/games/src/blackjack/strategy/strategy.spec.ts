import { rulesFor } from '../core/rules';
import {
  ACE,
  cardsIn,
  DealerDistribution,
  evaluateStartingHand,
  expectedSplitHands,
  fullShoe,
  HandEvaluator,
  countedTotal,
  TEN,
} from './ev';
import { EUROPEAN_ALL_STAKES_STRATEGY } from './generated/european-all-stakes';
import { EUROPEAN_ORIGINAL_BETS_ONLY_STRATEGY } from './generated/european-original-bets-only';
import { strategyRulesOf } from './rules';
import { codeFor, upColumn } from './table';

const european = strategyRulesOf(rulesFor('european-practice'));
const europeanObo = strategyRulesOf(
  rulesFor('european-practice', { noPeekDealerBlackjack: 'original-bets-only' }),
);
const europeanWithPeek = { ...european, holeCard: 'peek' as const };

/** Brute force: every ordered draw sequence of the dealer from a tiny shoe, no memo, no pruning. */
function bruteDealer(comp: number[], up: number): number[] {
  const out = [0, 0, 0, 0, 0, 0];
  const walk = (c: number[], hard: number, ace: boolean, cardsHeld: number, p: number): void => {
    const { total } = countedTotal(hard, ace);
    if (cardsHeld >= 2 && total > 21) {
      out[5] += p;
      return;
    }
    if (cardsHeld >= 2 && total >= 17) {
      out[total - 17] += p;
      return;
    }
    const n = c.reduce((a, b) => a + b, 0);
    for (let i = 0; i < 10; i += 1) {
      if (!c[i]) continue;
      const next = c.slice();
      next[i] -= 1;
      walk(next, hard + i + 1, ace || i === ACE, cardsHeld + 1, (p * c[i]) / n);
    }
  };
  walk(comp, up + 1, up === ACE, 1, 1);
  return out;
}

describe('dealer distribution', () => {
  it('matches a brute-force enumeration of a small shoe (up 6, no BJ possible)', () => {
    const comp = [1, 1, 2, 1, 1, 1, 1, 2, 1, 4];
    const exact = Array.from(new DealerDistribution(5, false).get(comp, 'k'));
    const brute = bruteDealer(comp, 5);
    exact.forEach((p, i) => expect(p).toBeCloseTo(brute[i], 12));
    expect(exact.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('conditions on no dealer BJ under an ace: the unconditioned outcome less the BJ, rescaled', () => {
    const comp = [2, 1, 1, 1, 1, 1, 1, 1, 1, 3];
    const d = Array.from(new DealerDistribution(ACE, false).get(comp, 'k'));
    const all = bruteDealer(comp, ACE);
    const pBj = comp[TEN] / cardsIn(comp);
    all[4] -= pBj; // the BJ sits in the "21" slot of the unconditioned enumeration
    all.forEach((p, i) => expect(d[i]).toBeCloseTo(p / (1 - pBj), 12));
  });
});

describe('split hand counts', () => {
  it('one split (2 hands) ends with two hands, a drawn pair card stays a pair', () => {
    const { nonPairHands, pairHands } = expectedSplitHands(0.1, 2);
    expect(nonPairHands).toBeCloseTo(1.8, 12);
    expect(pairHands).toBeCloseTo(0.2, 12);
  });

  it('re-splitting to 4 hands expects more than 2 and at most 4 hands', () => {
    const { nonPairHands, pairHands } = expectedSplitHands(0.1, 4);
    expect(nonPairHands + pairHands).toBeGreaterThan(2);
    expect(nonPairHands + pairHands).toBeLessThanOrEqual(4);
    // First re-split happens with 1 - 0.9^2 = 0.19; expected hands > 2.19 - pairs left unsplit.
    expect(nonPairHands + pairHands).toBeGreaterThan(2.19);
  });
});

describe('European no-peek decisions (games.md §4: no knowledge of the hidden card)', () => {
  const shoe = fullShoe(6);
  const values = (rules: typeof european, a: number, b: number, up: number) =>
    evaluateStartingHand(rules, shoe, a, b, up, new HandEvaluator(rules, up)).values;

  it('11 against a ten: hit when a dealer BJ takes the double too, double with peek', () => {
    const noPeek = values(european, 4, 5, TEN); // 5 + 6
    expect(noPeek.hit!).toBeGreaterThan(noPeek.double!);
    const peek = values(europeanWithPeek, 4, 5, TEN);
    expect(peek.double!).toBeGreaterThan(peek.hit!);
  });

  it('8-8 against a ten: hit when all stakes are lost to a BJ, split with original bets only', () => {
    const all = values(european, 7, 7, TEN);
    expect(all.hit!).toBeGreaterThan(all.split!);
    const obo = values(europeanObo, 7, 7, TEN);
    expect(obo.split!).toBeGreaterThan(obo.hit!);
  });

  it('the generated tables carry those decisions', () => {
    expect(EUROPEAN_ALL_STAKES_STRATEGY.hard[11][upColumn(TEN)]).toBe('H');
    expect(EUROPEAN_ALL_STAKES_STRATEGY.pairs['8'][upColumn(TEN)]).toBe('H');
    expect(EUROPEAN_ORIGINAL_BETS_ONLY_STRATEGY.pairs['8'][upColumn(TEN)]).toBe('P');
    expect(EUROPEAN_ALL_STAKES_STRATEGY.hard[11][upColumn(5)]).toBe('Dh');
  });

  it('a player BJ is worth 1.5 unless the dealer also has BJ (push)', () => {
    const comp = shoe.slice();
    const v = values(european, ACE, TEN, TEN);
    comp[ACE] -= 1; // the player's ace
    comp[TEN] -= 2; // the player's ten and the dealer's up card
    const q = comp[ACE] / cardsIn(comp);
    expect(v.stand!).toBeCloseTo(1.5 * (1 - q), 12);
  });
});

describe('table codes', () => {
  it('falls back to the second-best action for double and surrender', () => {
    expect(codeFor({ stand: -0.1, hit: -0.2, double: 0 })).toBe('Ds');
    expect(codeFor({ stand: -0.3, hit: -0.2, double: 0 })).toBe('Dh');
    expect(codeFor({ stand: -0.6, hit: -0.55, double: -0.9, surrender: -0.5 })).toBe('Rh');
    expect(codeFor({ stand: -0.6, split: -0.52, hit: -0.55, surrender: -0.5 })).toBe('Rp');
  });
});
