import { Ratio, Rounding } from './rules';

/**
 * Money is integer minor units. A payout that produces a fraction is rounded by the table's rule
 * and what was dropped (or added) is recorded as an exact fraction of a minor unit.
 */
export interface RoundingRecord {
  /** exact − paid, in minor units, as numerator / denominator (0/1 when nothing was rounded). */
  readonly numerator: number;
  readonly denominator: number;
}

export const NO_ROUNDING: RoundingRecord = { numerator: 0, denominator: 1 };

export interface Winnings {
  readonly amount: number;
  readonly rounding: RoundingRecord;
}

export function isMinorUnits(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** stake × a / b in whole minor units, rounded by `rounding`. */
export function winningsFor(stake: number, ratio: Ratio, rounding: Rounding): Winnings {
  const exactNumerator = stake * ratio.a;
  const floor = Math.floor(exactNumerator / ratio.b);
  const remainder = exactNumerator - floor * ratio.b;
  if (remainder === 0) return { amount: floor, rounding: NO_ROUNDING };
  const roundUp = rounding === 'up' || (rounding === 'half-up' && remainder * 2 >= ratio.b);
  const amount = roundUp ? floor + 1 : floor;
  return {
    amount,
    rounding: { numerator: exactNumerator - amount * ratio.b, denominator: ratio.b },
  };
}

/** Half a stake (surrender refund, insurance cost), rounded by the table's rule. */
export function halfOf(stake: number, rounding: Rounding): Winnings {
  return winningsFor(stake, { a: 1, b: 2 }, rounding);
}
