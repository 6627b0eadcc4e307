import { backoffMs } from './backoff';

describe('backoffMs', () => {
  it('doubles from the initial delay up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((a) => backoffMs(200, 5_000, a))).toEqual([
      200, 400, 800, 1_600, 3_200, 5_000, 5_000,
    ]);
  });

  it('stays at the cap, a finite number, after any number of attempts', () => {
    for (const attempt of [31, 1_024, 1_100, 1e9])
      expect(backoffMs(1_000, 15_000, attempt)).toBe(15_000);
    expect(backoffMs(0, 15_000, 2_000)).toBe(0);
  });
});
