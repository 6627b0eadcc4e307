import { spotNumber } from './spot-number';

describe('spotNumber', () => {
  it('reads plain decimal seat numbers', () => {
    expect(['1', '7', '12'].map(spotNumber)).toEqual([1, 7, 12]);
  });

  it('refuses what Number() would read as a number', () => {
    for (const spot of ['1e0', '0x1', ' 1', '1 ', '', '01', '1.0', '+1', '-1', undefined]) {
      expect(spotNumber(spot)).toBeNaN();
    }
  });
});
