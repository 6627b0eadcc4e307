import fc from 'fast-check';
import { Card, cardFromIndex, cards } from '@studio/cards';
import { evaluateHand, HandEvaluation } from './hand';
import { POK_DENG_RULES } from './rules';
import {
  applyRatio,
  PlayerBetOutcome,
  playerBetOutcome,
  settlePairBet,
  settlePlayerBet,
} from './settlement';

function hand(codes: string): HandEvaluation {
  const [a, b] = cards(codes) as [Card, Card];
  return evaluateHand(a, b);
}
const settle = (banker: string, player: string, stake = 100) =>
  settlePlayerBet(POK_DENG_RULES, stake, hand(player), hand(banker));

describe('games.md section 5 worked examples (Player 1 bet of 100: 200 deducted)', () => {
  it.each([
    [1, '4H 8C', '6C 7S', 'player-wins', 300],
    [2, '2C 3D', '9C 2D', 'banker-wins', 100],
    [3, 'QC TC', 'QC JC', 'player-wins-special-pattern', 400],
    [4, '8C JC', '9D 6C', 'banker-wins-special-pattern', 0],
    [5, '6C 5C', 'JD AC', 'tie', 200],
    [6, 'JC KD', '5S 9H', 'banker-wins-special-pattern', 0],
    [8, '2H 4H', '5C 5C', 'player-wins-special-pattern-banker-0-or-6', 300],
    [9, '9D 7C', 'KH 9H', 'player-wins-8-or-9-flush-or-pair-against-0-or-6', 400],
  ] as const)(
    'example %d: Banker %s, Player 1 %s -> %s, returned %d',
    (_n, b, p, outcome, back) => {
      const s = settle(b, p);
      expect(s.outcome).toBe(outcome);
      expect(s.deducted).toBe(200);
      expect(s.returned).toBe(back);
      expect(s.net).toBe(back - 200);
    },
  );

  it('example 7: Player 1 Pair bet of 100 on TC TH, nothing deducted beyond it, returns 1,200', () => {
    const s = settlePairBet(POK_DENG_RULES, 100, hand('TC TH'));
    expect(s).toMatchObject({ outcome: 'pair-wins', deducted: 100, returned: 1200, net: 1100 });
    expect(s.ratio).toBe('11:1');
    expect(settlePairBet(POK_DENG_RULES, 100, hand('6S 8S'))).toMatchObject({
      outcome: 'pair-loses',
      returned: 0,
      net: -100,
    });
  });
});

describe('the special-pattern rule and its exceptions', () => {
  it('pays 2:1 for a win with a flush, a pair or a combination', () => {
    expect(settle('9S 3D', '2H AH').returned).toBe(400); // 3, flush v 2
    expect(settle('9S 3D', '2H 2D').returned).toBe(400); // 4, pair v 2
    expect(settle('9S 3D', 'JS TD').returned).toBe(400); // 7.2 v 2
  });

  it('pays 1:1 for a win without a special pattern', () => {
    expect(settle('9S 3D', '2H AD')).toMatchObject({ outcome: 'player-wins', returned: 300 });
  });

  it.each([
    ['banker 0', '3S 7D'],
    ['banker 6', '2H 4C'],
    ['banker 6 with a flush', '2H 4H'],
    ['banker 6 with a pair', '3D 3C'],
  ])('pays a special-pattern win 1:1 against %s (%s)', (_label, banker) => {
    // 7 with a flush, suited A-K, a picture pair, a special pair
    for (const player of ['4H 3H', 'AS KS', 'JC QD', '5C 5D']) {
      expect(settle(banker, player)).toMatchObject({
        outcome: 'player-wins-special-pattern-banker-0-or-6',
        returned: 300,
      });
    }
  });

  it('pays a pair of 4 points 1:1 against a banker 0', () => {
    expect(settle('3S 7D', '7C 7D')).toMatchObject({
      outcome: 'player-wins-special-pattern-banker-0-or-6',
      returned: 300,
    });
  });

  it('still pays 2:1 against 0 or 6 when the player has 8 or 9 points with a flush or a pair', () => {
    for (const banker of ['3S 7D', '2H 4C']) {
      for (const player of ['8C JC', 'AH 8H', '9H KH', '4S 4H', '9S 9H']) {
        expect(settle(banker, player)).toMatchObject({
          outcome: 'player-wins-8-or-9-flush-or-pair-against-0-or-6',
          returned: 400,
        });
      }
      // 8 or 9 without a flush or a pair is no special pattern: 1:1 as always.
      expect(settle(banker, '8C JD')).toMatchObject({ outcome: 'player-wins', returned: 300 });
    }
  });

  it('does not treat a banker combination as 0 points: a combination scores 7.1-7.5', () => {
    // Picture pair (raw points 0) loses to a special pair: the player's special-pattern win pays 2:1.
    expect(settle('JC KD', 'AS AH')).toMatchObject({
      outcome: 'player-wins-special-pattern',
      returned: 400,
    });
  });

  it('applies the 0-or-6 exception to player wins only: a banker 6 with a flush wins 2:1', () => {
    expect(settle('2H 4H', '2S 3D')).toMatchObject({
      outcome: 'banker-wins-special-pattern',
      returned: 0,
    });
    expect(settle('2H 4C', '2S 3D')).toMatchObject({ outcome: 'banker-wins', returned: 100 });
  });

  it('takes bet and deposit when the banker wins with a pair or a combination', () => {
    expect(settle('4S 4H', '2S 3D').returned).toBe(0);
    expect(settle('AS KS', '3S 4D').returned).toBe(0);
    expect(settle('QC TC', '3S 4D').returned).toBe(0);
  });
});

describe('payout arithmetic', () => {
  it('rounds a fractional payout down to the minor unit and records what it dropped', () => {
    expect(applyRatio(101, { a: 3, b: 2 })).toEqual({
      amount: 151,
      roundedDown: { numerator: 1, denominator: 2 },
    });
    expect(applyRatio(100, { a: 11, b: 1 })).toEqual({
      amount: 1100,
      roundedDown: { numerator: 0, denominator: 1 },
    });
  });
});

describe('settlement conserves money (property)', () => {
  const anyCard = fc.integer({ min: 0, max: 51 }).map(cardFromIndex);
  const anyHand = fc.tuple(anyCard, anyCard).map(([a, b]) => evaluateHand(a, b));
  const anyStake = fc.integer({ min: 1, max: 1_000_000_000 });
  // What the player nets per unit bet in each outcome: quoted from the rules, not from the engine.
  const NET: Record<PlayerBetOutcome, number> = {
    'player-wins': 1,
    'player-wins-special-pattern': 2,
    'player-wins-special-pattern-banker-0-or-6': 1,
    'player-wins-8-or-9-flush-or-pair-against-0-or-6': 2,
    tie: 0,
    'banker-wins': -1,
    'banker-wins-special-pattern': -2,
  };

  it('for any two hands and any stake: deducted = 2 × stake, 0 ≤ returned, net = returned − deducted', () => {
    fc.assert(
      fc.property(anyHand, anyHand, anyStake, (player, banker, stake) => {
        const s = settlePlayerBet(POK_DENG_RULES, stake, player, banker);
        expect(s.deducted).toBe(2 * stake);
        expect(s.returned).toBeGreaterThanOrEqual(0);
        expect(s.returned).toBe(s.deducted + s.net);
        expect(s.net).toBe(NET[s.outcome] * stake);
        expect(Number.isSafeInteger(s.returned)).toBe(true);
      }),
    );
  });

  it('is zero-sum between two hands swapped, except the banker-0-or-6 exception that costs 1 unit', () => {
    fc.assert(
      fc.property(anyHand, anyHand, anyStake, (x, y, stake) => {
        const xy = settlePlayerBet(POK_DENG_RULES, stake, x, y);
        const yx = settlePlayerBet(POK_DENG_RULES, stake, y, x);
        const exceptions = [xy, yx].filter(
          (s) => s.outcome === 'player-wins-special-pattern-banker-0-or-6',
        ).length;
        expect(xy.net + yx.net + exceptions * stake).toBe(0);
      }),
    );
  });

  it('Player N Pair: returned is 0 or 12 × stake, net = returned − stake', () => {
    fc.assert(
      fc.property(anyHand, anyStake, (player, stake) => {
        const s = settlePairBet(POK_DENG_RULES, stake, player);
        expect(s.deducted).toBe(stake);
        expect(s.returned).toBe(player.pair ? 12 * stake : 0);
        expect(s.net).toBe(s.returned - s.deducted);
      }),
    );
  });

  it('classifies the same way whatever the stake', () => {
    fc.assert(
      fc.property(anyHand, anyHand, anyStake, (player, banker, stake) => {
        expect(settlePlayerBet(POK_DENG_RULES, stake, player, banker).outcome).toBe(
          playerBetOutcome(POK_DENG_RULES, player, banker),
        );
      }),
    );
  });
});
