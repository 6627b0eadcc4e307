import { rulesFor } from '../../libs/games/src/blackjack/core/rules';
import { optionEffects, OptionRow, PUBLISHED } from './options';
import { matchPublished, OPTION_CONSTRAINTS } from './verify';

const row = (returnPct: number, o: Parameters<typeof rulesFor>[1]): OptionRow => ({
  label: JSON.stringify(o),
  rules: rulesFor('lux', o),
  returnPct,
});

describe('matching the published RTPs (games.md: Infinite 99.46%, Lux 99.53%)', () => {
  const rows = [
    row(99.458, { peek: false, surrender: 'none' }),
    row(99.47, { peek: true, surrender: 'late', doubleAfterSplit: false }),
    row(99.541, { peek: false, surrender: 'late' }),
    row(99.505, { peek: true, surrender: 'late', maxHands: 4 }),
  ];

  it('takes the closest return among the combinations the game can have', () => {
    expect(PUBLISHED).toEqual({ infinite: 99.46, lux: 99.53 });
    // Unconstrained, 99.458 is closest to 99.46; surrender is an Infinite action, so 99.470 wins.
    expect(matchPublished(rows, 99.46).returnPct).toBe(99.458);
    expect(matchPublished(rows, 99.46, OPTION_CONSTRAINTS.infinite).returnPct).toBe(99.47);
    // Lux ends at once on a dealer BJ, so it peeks: 99.541 (no peek) is out.
    expect(matchPublished(rows, 99.53).returnPct).toBe(99.541);
    expect(matchPublished(rows, 99.53, OPTION_CONSTRAINTS.lux).returnPct).toBe(99.505);
  });
});

describe('option effects', () => {
  it('averages the change of one option over rows equal in every other option', () => {
    const rows = [
      row(99.5, { peek: true, maxHands: 2, doubleAfterSplit: true, surrender: 'none' }),
      row(99.6, { peek: true, maxHands: 4, doubleAfterSplit: true, surrender: 'none' }),
      row(99.3, { peek: true, maxHands: 2, doubleAfterSplit: false, surrender: 'none' }),
      row(99.5, { peek: true, maxHands: 4, doubleAfterSplit: false, surrender: 'none' }),
    ];
    const split = optionEffects(rows).find((e) => e.change.startsWith('split limit'))!;
    expect(split.pairs).toBe(2);
    expect(split.mean).toBeCloseTo(0.15, 10);
    expect(split.min).toBeCloseTo(0.1, 10);
    expect(split.max).toBeCloseTo(0.2, 10);
  });
});
