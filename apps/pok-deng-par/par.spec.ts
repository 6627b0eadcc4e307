import { POK_DENG_RULES } from '@studio/games/pok-deng';
import { computeParSheet, fraction, percent } from './par';

describe('Pok Deng PAR sheet (exact enumeration, 8 decks)', () => {
  const sheet = computeParSheet(POK_DENG_RULES);
  const ways = (outcome: string): number =>
    sheet.playerBet.outcomes.find((o) => o.outcome === outcome)!.ways;

  it('counts every ordered draw of four cards from 416: 416 × 415 × 414 × 413', () => {
    expect(sheet.totalWays).toBe(416 * 415 * 414 * 413);
    expect(sheet.playerBet.outcomes.reduce((a, o) => a + o.ways, 0)).toBe(sheet.totalWays);
  });

  it('is symmetric: player and banker win ordinary hands equally often', () => {
    expect(ways('player-wins')).toBe(ways('banker-wins'));
    // Special-pattern wins of either side are equally likely; the exception moves some to 1:1.
    expect(
      ways('player-wins-special-pattern') +
        ways('player-wins-8-or-9-flush-or-pair-against-0-or-6') +
        ways('player-wins-special-pattern-banker-0-or-6'),
    ).toBe(ways('banker-wins-special-pattern'));
  });

  it('gives the Player N Pair the probability of a same-rank second card: 31/415', () => {
    // 32 cards of each rank in 416; the second card matches with 31 of the 415 left.
    const pair = sheet.pairBet.outcomes.find((o) => o.outcome === 'pair-wins')!;
    expect(`${pair.probability.numerator}/${pair.probability.denominator}`).toBe('31/415');
    // 12 × 31/415 returned per unit bet.
    expect(`${sheet.pairBet.returnPerUnitBet.numerator}`).toBe('372');
  });

  it('returns 98.75% per unit deducted on Player N, as published (games.md section 5)', () => {
    expect(percent(sheet.playerBet.returnPerUnitDeducted, 2)).toBe('98.75%');
    // games.md: the exact expectation per unit bet is -2.50%, -1.25% of the 2x deduction.
    expect(percent(sheet.playerBet.expectedNetPerUnitBet, 2)).toBe('-2.50%');
    expect(percent(sheet.playerBet.expectedNetPerUnitDeducted, 2)).toBe('-1.25%');
  });
});

describe('exact fractions', () => {
  it('reduces and rounds half up', () => {
    expect(fraction(-6n, 8n)).toMatchObject({
      numerator: '-3',
      denominator: '4',
      decimal: '-0.7500000000',
    });
    expect(fraction(2n, 3n).decimal).toBe('0.6666666667');
    expect(percent(fraction(1n, 8n), 2)).toBe('12.50%');
    expect(percent(fraction(-1n, 3n), 4)).toBe('-33.3333%');
  });
});
