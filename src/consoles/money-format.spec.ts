import { formatAmount, formatMinor, formatUtc, secondsLeft, stakeText } from './public/format.js';

describe('console amounts (integer minor units, US format, with currency)', () => {
  it('groups thousands and always shows two decimals', () => {
    expect(formatAmount(123_400, 'USD')).toBe('1,234.00 USD');
    expect(formatAmount(5_000, 'THB')).toBe('50.00 THB');
    expect(formatAmount(7, 'EUR')).toBe('0.07 EUR');
    expect(formatAmount(0, 'EUR')).toBe('0.00 EUR');
    expect(formatAmount(123_456_789_01, 'EUR')).toBe('123,456,789.01 EUR');
  });

  it('says what a stake includes: the bet, a deposit, what a double or split added', () => {
    // A 50.00 THB Pok Deng Player bet deducts 100.00 THB: the bet and an equal deposit.
    expect(stakeText(10_000, { bet: 5_000, deposit: 5_000, added: 0 }, 'THB')).toBe(
      'bet 50.00 THB + deposit 50.00 THB = stake 100.00 THB',
    );
    expect(stakeText(2_000, { bet: 1_000, deposit: 0, added: 1_000 }, 'EUR')).toBe(
      'bet 10.00 EUR + 10.00 EUR added by a double or split = stake 20.00 EUR',
    );
    expect(stakeText(500, { bet: 500, deposit: 0, added: 0 }, 'EUR')).toBe('bet 5.00 EUR');
    expect(stakeText(500, null, 'EUR')).toBe('stake 5.00 EUR');
  });

  it('keeps the sign of losses', () => {
    expect(formatAmount(-250_050, 'EUR')).toBe('-2,500.50 EUR');
    expect(formatAmount(-5, 'USD')).toBe('-0.05 USD');
  });

  it('agrees with Intl.NumberFormat en-US for every amount, and is exact where doubles are not', () => {
    const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 });
    for (const minor of [1, 99, 100, 101, 999_999, 1_000_000, 31_415_926, -42_000]) {
      expect(formatMinor(minor)).toBe(intl.format(minor / 100));
    }
    // 2^53 - 1 minor units: minor / 100 as a double would print …40,991.00 or …40,992.00.
    expect(formatAmount(Number.MAX_SAFE_INTEGER, 'USD')).toBe('90,071,992,547,409.91 USD');
  });

  it('uses the currency exponent of ISO 4217', () => {
    expect(formatAmount(1_234, 'JPY')).toBe('1,234 JPY');
    expect(formatAmount(1_234_567, 'KWD')).toBe('1,234.567 KWD');
  });

  it('refuses what is not an amount with a specific message', () => {
    expect(() => formatAmount(12.5, 'EUR')).toThrow('Amounts are whole minor units; got 12.5');
    expect(() => formatAmount(Number.NaN, 'EUR')).toThrow('got NaN');
    expect(() => formatAmount(100, 'euro')).toThrow('three-letter ISO 4217 code; got euro');
  });

  it('prints UTC times and countdowns on the service clock', () => {
    expect(formatUtc('2026-11-29T15:04:05.678Z')).toBe('2026-11-29 15:04:05 UTC');
    expect(formatUtc(null)).toBe('—');
    const now = Date.parse('2026-11-29T15:00:00.000Z');
    expect(secondsLeft('2026-11-29T15:00:09.001Z', now)).toBe(10);
    expect(secondsLeft('2026-11-29T14:59:59.000Z', now)).toBe(0);
  });
});
