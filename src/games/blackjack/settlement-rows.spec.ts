import { fractionSum } from './settlement-rows';

describe('blackjack settlement rows', () => {
  it('sums rounding over hands', () => {
    expect(fractionSum([])).toBe('0');
    expect(
      fractionSum([
        { numerator: 1, denominator: 2 },
        { numerator: 0, denominator: 1 },
      ]),
    ).toBe('1/2');
    expect(
      fractionSum([
        { numerator: 1, denominator: 2 },
        { numerator: 1, denominator: 2 },
      ]),
    ).toBe('1');
  });
});
