import { groupTimeline } from './public/timeline.js';
import { groupTitle, partText } from './public/timeline-words.js';

type Group = {
  group: string;
  key: string;
  entries: unknown[];
  parts: Array<Record<string, unknown>>;
  totals?: Array<Record<string, unknown>>;
};

const at = '2026-12-01T10:00:01.000Z';

/** Nine bets and nine settlements (over GROUP_OVER: each one line): casino-a in EUR, casino-b in THB. */
function mixedRound() {
  const players = Array.from({ length: 9 }, (_, i) => ({
    playerId: i < 6 ? `casino-a:p${i}` : `casino-b:p${i}`,
    currency: i < 6 ? 'EUR' : 'THB',
    amount: i < 6 ? 1_000 : 50_000,
  }));
  return [
    ...players.map((p) => ({ kind: 'bet', at, betType: 'main', deducted: p.amount, ...p })),
    ...players.map((p, i) => ({
      kind: 'settlement',
      at,
      betType: 'main',
      outcome: i % 3 === 0 ? 'win' : 'lose',
      stake: p.amount,
      returned: i % 3 === 0 ? 2 * p.amount : 0,
      net: i % 3 === 0 ? p.amount : -p.amount,
      playerId: p.playerId,
      currency: p.currency,
    })),
  ];
}

describe('the auditor timeline’s runs in words', () => {
  it('reads a run of one currency as before', () => {
    const entries = Array.from({ length: 9 }, () => ({
      kind: 'bet',
      at,
      betType: 'main',
      amount: 1_000,
      deducted: 1_000,
      currency: 'EUR',
    }));
    const [group] = groupTimeline(entries) as Group[];
    expect(groupTitle(group)).toBe('9 bets, 90.00 EUR (deducted 90.00 EUR):');
    expect(partText('bet', group.parts[0])).toBe('Main ×9 (90.00 EUR)');
  });

  it('never adds two currencies: each run and part names its money per currency', () => {
    const [bets, settlements] = groupTimeline(mixedRound()) as Group[];
    expect(bets.totals).toEqual([
      { currency: 'EUR', amount: 6_000, deducted: 6_000 },
      { currency: 'THB', amount: 150_000, deducted: 150_000 },
    ]);
    expect(groupTitle(bets)).toBe(
      '9 bets, 60.00 EUR (deducted 60.00 EUR); 1,500.00 THB (deducted 1,500.00 THB):',
    );
    expect(partText('bet', bets.parts[0])).toBe('Main ×9 (60.00 EUR, 1,500.00 THB)');
    expect(groupTitle(settlements)).toBe(
      '9 settlements, staked 60.00 EUR, returned 40.00 EUR, net -20.00 EUR; ' +
        'staked 1,500.00 THB, returned 1,000.00 THB, net -500.00 THB:',
    );
    expect(settlements.parts.map((p) => partText('settlement', p))).toEqual([
      'Main: lose ×6 (net -40.00 EUR, -1,000.00 THB)',
      'Main: win ×3 (net 20.00 EUR, 500.00 THB)',
    ]);
  });
});
