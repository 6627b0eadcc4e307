import { newSalt } from './event-chain';

describe('newSalt', () => {
  it('gives 32 hex digits, none twice, across several refills of its pool', () => {
    const salts = Array.from({ length: 2_000 }, () => newSalt());
    for (const salt of salts) expect(salt).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(salts).size).toBe(salts.length);
  });

  it('draws fresh bytes on each refill (a pool refilled with the same bytes repeats salts)', () => {
    // 256 salts per pool: the 257th is the first of the next pool.
    const first = Array.from({ length: 256 }, () => newSalt());
    const second = Array.from({ length: 256 }, () => newSalt());
    const seen = new Set(first);
    expect(second.filter((s) => seen.has(s))).toEqual([]);
  });
});
