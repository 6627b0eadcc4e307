import { rulesFor } from '../../libs/games/src/blackjack/core/rules';
import { OptionRow, PUBLISHED } from './options';
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
