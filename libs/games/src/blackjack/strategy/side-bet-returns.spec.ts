import { evaluatePairs } from '../side-bets/side-bets';
import {
  dealerBustCardCounts,
  exactBustBonusReturn,
  exactThreeCardReturn,
  exactTwoCardReturn,
} from './side-bet-returns';

describe('exact side-bet returns (games.md §2 and §3 pay tables, 8 decks)', () => {
  it('Pairs: perfect 7/415 at 30:1, coloured 8/415 at 10:1, mixed 16/415 at 5:1', () => {
    const r = exactTwoCardReturn(8, evaluatePairs);
    expect(r.patterns['perfect-pair']).toBeCloseTo(7 / 415, 12);
    expect(r.patterns['coloured-pair']).toBeCloseTo(8 / 415, 12);
    expect(r.patterns['mixed-pair']).toBeCloseTo(16 / 415, 12);
    expect(r.rtp).toBeCloseTo((7 * 31 + 8 * 11 + 16 * 6) / 415, 12);
  });

  it('three-card enumeration weights sum to one', () => {
    const r = exactThreeCardReturn(8, () => ({ pattern: 'any', pays: { a: 0, b: 1 } }));
    expect(r.rtp).toBeCloseTo(1, 10);
  });

  it('the dealer bust distribution is a probability below one third with 3 cards most likely', () => {
    const counts = dealerBustCardCounts(1, false);
    const bust = counts.reduce((a, b) => a + b, 0);
    expect(bust).toBeGreaterThan(0.25);
    expect(bust).toBeLessThan(0.3);
    expect(counts[2]).toBe(0); // two cards cannot bust
    expect(counts[3]).toBeGreaterThan(counts[4]);
    const r = exactBustBonusReturn(1, false);
    expect(r.rtp).toBeCloseTo(
      counts[3] * 2 +
        counts[4] * 3 +
        counts[5] * 10 +
        counts[6] * 51 +
        counts[7] * 101 +
        counts[8] * 251,
      12,
    );
  });
});
