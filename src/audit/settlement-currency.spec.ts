import { settlementCurrencyOf } from './settlement-currency';

describe('the currency of a settlement', () => {
  const currencyOf = settlementCurrencyOf([
    { betId: 'b-1', playerId: 'casino-a:alice', currency: 'THB' },
    { betId: 'b-2', playerId: 'casino-b:alice', currency: 'EUR' },
    { betId: 'b-3', playerId: 'casino-b:alice', currency: 'EUR' },
  ]);

  it('is its bet’s', () => {
    expect(currencyOf({ betId: 'b-1', playerId: 'casino-a:alice' })).toBe('THB');
    expect(currencyOf({ betId: 'b-3', playerId: 'casino-b:alice' })).toBe('EUR');
  });

  it('is its player’s when it has no bet row (an insurance), never another platform’s alice', () => {
    expect(currencyOf({ betId: null, playerId: 'casino-b:alice' })).toBe('EUR');
    expect(currencyOf({ betId: 'lux-insurance', playerId: 'casino-a:alice' })).toBe('THB');
  });

  it('is unknown for a player without a bet in the round (then the table’s default applies)', () => {
    expect(currencyOf({ betId: null, playerId: 'casino-c:alice' })).toBeUndefined();
  });

  it('drops the padding of a char(3) column', () => {
    const padded = settlementCurrencyOf([{ betId: 'b', playerId: 'p', currency: 'EUR ' }]);
    expect(padded({ betId: 'b', playerId: 'p' })).toBe('EUR');
  });
});
