import { POK_DENG_RULES } from '@studio/games/pok-deng';
import { computeParSheet } from '../../apps/pok-deng-par/par';
import type { TableDefinition } from '../config/tables-config';
import { EXPECTED_RETURNS, SD_FLOORS } from './expected-returns';
import { MIN_ROUNDS, rescanBand, returnBand, RoundResult, Z_99 } from './hold-band';
import { holdReport } from './hold-report';

const round = (i: number, stake: number, net: number, expectedReturn = 0.975): RoundResult => ({
  roundId: `r-${i}`,
  endedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, i)).toISOString(),
  stake,
  net,
  expectedNet: stake * (expectedReturn - 1),
});

describe('hold monitoring statistics', () => {
  it('uses the exact Pok Deng PAR figures of apps/pok-deng-par', () => {
    const sheet = computeParSheet(POK_DENG_RULES);
    // The numerator may carry the sign itself; `negative` says which way it points.
    const perUnit = (f: { numerator: string; denominator: string; negative: boolean }) => {
      const v = Math.abs(Number(f.numerator) / Number(f.denominator));
      return f.negative ? -v : v;
    };
    expect(EXPECTED_RETURNS['pok-deng'].player).toBeCloseTo(
      1 + perUnit(sheet.playerBet.expectedNetPerUnitDeducted),
      12,
    );
    expect(EXPECTED_RETURNS['pok-deng'].pair).toBeCloseTo(
      1 + perUnit(sheet.pairBet.expectedNetPerUnitDeducted),
      12,
    );
    // A Player N stake is bet + deposit (2 units): the per-unit-deducted deviation is half.
    expect(SD_FLOORS['pok-deng']).toBeCloseTo(
      Math.sqrt(Number(sheet.playerBet.variancePerUnitBet.decimal)) / 2,
      9,
    );
  });

  it('keeps a fair run inside the 99% band and flags a run where the players win every round', () => {
    // Alternating wins and losses of one unit: return 100%, expected 97.5%, sd 1.
    const fair = Array.from({ length: 40 }, (_, i) => round(i, 1000, i % 2 ? 1000 : -1000));
    const inside = returnBand(fair);
    expect(inside.observed).toBeCloseTo(1, 12);
    expect(inside.expected).toBeCloseTo(0.975, 12);
    expect(inside.high! - inside.expected!).toBeCloseTo((Z_99 * 1.0127) / Math.sqrt(40), 2);
    expect(inside.verdict).toBe('inside');

    const stacked = Array.from({ length: MIN_ROUNDS }, (_, i) => round(i, 1000, 2000));
    const above = returnBand(stacked);
    expect(above.observed).toBe(3);
    // Identical results have no spread: the floor of 1 unit per round keeps the band open.
    expect(above.sd).toBe(1);
    expect(above.verdict).toBe('above');
    expect(returnBand(stacked.slice(0, MIN_ROUNDS - 1)).verdict).toBe('too-few-rounds');
    expect(returnBand([]).observed).toBeNull();
  });

  it('weighs rounds by their stake', () => {
    const band = returnBand([round(1, 9000, -9000), round(2, 1000, 1000)]);
    expect(band.observed).toBeCloseTo(1 - 8000 / 10000, 12);
    // √(9000² + 1000²) / 10000 of the per-round deviation.
    const sd = band.sd!;
    expect(band.high! - band.expected!).toBeCloseTo((Z_99 * sd * Math.sqrt(82e6)) / 1e4, 9);
  });

  it('judges the rescan rate against the 5% norm once there are enough readings', () => {
    expect(rescanBand(970, 30).verdict).toBe('inside');
    expect(rescanBand(800, 200).verdict).toBe('above');
    expect(rescanBand(5, 5).verdict).toBe('too-few-readings');
    expect(rescanBand(0, 0).rate).toBeNull();
  });

  it('raises an alert for the table outside its band, and none for the practice table', () => {
    const tables = [
      { id: 'pd', name: 'Pok Deng 1', game: 'pok-deng', currency: 'THB', scanner: {} },
      { id: 'pr', name: 'Practice', game: 'european-blackjack-practice', currency: 'XPT' },
    ] as unknown as TableDefinition[];
    const rows = (tableId: string, net: number) =>
      Array.from({ length: 6 }, (_, i) => ({
        roundId: `${tableId}-${i}`,
        endedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, i)).toISOString(),
        betType: tableId === 'pd' ? 'player' : 'main',
        stake: 500,
        net,
      }));
    const report = holdReport(
      tables,
      {
        lastRounds: new Map([
          ['pd', rows('pd', 1000)],
          ['pr', rows('pr', 0)],
        ]),
        hourly: [{ tableId: 'pd', hour: '2026-11-30T12:00:00Z', rounds: 6 }],
        scanners: [{ tableId: 'pd', cards: 100, unrecognised: 2, outages: 1 }],
      },
      { now: new Date('2026-11-30T13:00:00Z'), rounds: 200, hours: 24 },
    );
    const [pd, pr] = report.tables;
    expect(pd.returns.verdict).toBe('above');
    expect(pd.alerts.map((a) => a.kind)).toEqual(['return-above', 'scanner-outages']);
    expect(pd.alerts[0].message).toMatch(
      /^Players' return 300\.00% over the last 6 rounds is above/,
    );
    expect(pd.series).toHaveLength(6);
    expect(pd.roundsPerHour).toEqual([{ hour: '2026-11-30T12:00:00Z', rounds: 6 }]);
    expect(pr.scanner).toBe(false);
    expect(pr.rescans).toBeNull();
    expect(pr.alerts).toEqual([]);
    expect(report.games.map((g) => [g.game, g.returns.rounds])).toEqual([
      ['pok-deng', 6],
      ['european-blackjack-practice', 6],
    ]);
  });
});
