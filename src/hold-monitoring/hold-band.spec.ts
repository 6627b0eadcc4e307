import { POK_DENG_RULES } from '@studio/games/pok-deng';
import { computeParSheet } from '../../apps/pok-deng-par/par';
import type { TableDefinition } from '../config/tables-config';
import {
  EXPECTED_RETURN_SOURCES,
  EXPECTED_RETURNS,
  MAX_RETURNS,
  SD_FLOORS,
} from './expected-returns';
import { MAX_HALF_WIDTH, rescanBand, returnBand, RoundResult, Z_99 } from './hold-band';
import { holdReport } from './hold-report';

const round = (
  i: number,
  stake: number,
  net: number,
  expectedReturn = 0.975,
  maxReturn = 2.5,
): RoundResult => ({
  roundId: `r-${i}`,
  endedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, i)).toISOString(),
  stake,
  net,
  expectedNet: stake * (expectedReturn - 1),
  maxReturned: stake * maxReturn,
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
    const fair = Array.from({ length: 200 }, (_, i) => round(i, 1000, i % 2 ? 1000 : -1000));
    const inside = returnBand(fair);
    expect(inside.observed).toBeCloseTo(1, 12);
    expect(inside.expected).toBeCloseTo(0.975, 12);
    expect(inside.high! - inside.expected!).toBeCloseTo((Z_99 * 1.0025) / Math.sqrt(200), 3);
    expect(inside.verdict).toBe('inside');
    expect(inside.roundsNeeded).toBeNull();

    // Identical results have no spread: the floor of 1 unit per round keeps the band open, and
    // it takes (2.5758 / 0.25)² = 106.2 rounds to narrow it to ±25 points.
    const stacked = Array.from({ length: 107 }, (_, i) => round(i, 1000, 2000, 0.975, 3));
    const above = returnBand(stacked);
    expect(above.observed).toBe(3);
    expect(above.sd).toBe(1);
    expect(above.halfWidth).toBeLessThanOrEqual(MAX_HALF_WIDTH);
    expect(above.verdict).toBe('above');
    const early = returnBand(stacked.slice(0, 106));
    expect(early.verdict).toBe('too-few-rounds');
    expect(early.roundsNeeded).toBe(107);
    expect(returnBand([]).observed).toBeNull();
  });

  it('says "too few rounds" while the band is wide, and never draws it past what can happen', () => {
    // Four rounds of blackjack: the band would span about −88% to 283% around 97.5%.
    const four = Array.from({ length: 4 }, (_, i) => round(i, 1000, i % 2 ? 1500 : -1000));
    const band = returnBand(four, { sdFloor: 1.15 });
    expect(band.halfWidth).toBeGreaterThan(1);
    expect(band.verdict).toBe('too-few-rounds');
    // Nobody gets back less than nothing; nobody more than a blackjack pays (2.5 per unit).
    expect(band.low).toBe(0);
    expect(band.high).toBeCloseTo(2.5, 12);
    // (2.5758 × sd / 0.25)² rounds of equal stakes narrow it enough.
    expect(band.roundsNeeded).toBe(Math.ceil(4 * (band.halfWidth! / MAX_HALF_WIDTH) ** 2));
    expect(band.roundsNeeded).toBeGreaterThan(140);
  });

  it('knows the most every rated bet can return, in words without repository paths', () => {
    // A Pok Deng Player bet won 2:1 returns the deduction plus twice the bet: 2 per unit
    // deducted; a Pair bet 11:1 returns 12.
    const { depositMultiple, payouts } = POK_DENG_RULES;
    const deducted = 1 + depositMultiple;
    const special = payouts.playerWinSpecialPattern;
    expect(MAX_RETURNS['pok-deng'].player).toBe((deducted + special.a / special.b) / deducted);
    expect(MAX_RETURNS['pok-deng'].pair).toBe(1 + payouts.pair.a / payouts.pair.b);
    for (const [game, figures] of Object.entries(EXPECTED_RETURNS)) {
      const most = MAX_RETURNS[game as keyof typeof MAX_RETURNS];
      for (const [betType, rtp] of Object.entries(figures)) {
        expect([game, betType, most[betType] > rtp]).toEqual([game, betType, true]);
      }
      expect(EXPECTED_RETURN_SOURCES[game as keyof typeof MAX_RETURNS]).not.toMatch(/[/_]|\.md/);
    }
  });

  it('weighs rounds by their stake', () => {
    const band = returnBand([round(1, 9000, -9000), round(2, 1000, 1000)], { z: 0.5 });
    expect(band.observed).toBeCloseTo(1 - 8000 / 10000, 12);
    // √(9000² + 1000²) / 10000 of the per-round deviation.
    const sd = band.sd!;
    expect(band.halfWidth).toBeCloseTo((0.5 * sd * Math.sqrt(82e6)) / 1e4, 9);
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
      Array.from({ length: 60 }, (_, i) => ({
        roundId: `${tableId}-${i}`,
        endedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, i)).toISOString(),
        currency: tableId === 'pd' ? 'THB' : 'XPT',
        betType: tableId === 'pd' ? 'player' : 'main',
        stake: 500,
        net,
      }));
    const report = holdReport(
      tables,
      {
        lastRounds: new Map([
          ['pd', rows('pd', 500)],
          ['pr', rows('pr', 0)],
        ]),
        hourly: [{ tableId: 'pd', hour: '2026-11-30T12:00:00Z', rounds: 60 }],
        scanners: [{ tableId: 'pd', cards: 100, unrecognised: 2, outages: 1 }],
      },
      { now: new Date('2026-11-30T13:00:00Z'), rounds: 200, hours: 24 },
    );
    const [pd, pr] = report.tables;
    expect(pd.returns.verdict).toBe('above');
    expect(pd.alerts.map((a) => a.kind)).toEqual(['return-above', 'scanner-outages']);
    // Every Player bet won 2:1: 200% of the deduction, the most it can return.
    expect(pd.alerts[0].message).toMatch(
      /^Players' return 200\.00% over the last 60 rounds is above the 99% band 7\d\.\d\d%–12\d\.\d\d%/,
    );
    expect(pd.returns.high).toBeLessThanOrEqual(2);
    // The plot draws the band from the round it is narrow enough to judge (54 for Pok Deng).
    expect(pd.series).toHaveLength(60);
    expect(pd.series.findIndex((p) => p.low !== null)).toBe(53);
    expect(pd.series[52]).toMatchObject({ low: null, high: null, observed: 2 });
    expect(pd.roundsPerHour).toEqual([{ hour: '2026-11-30T12:00:00Z', rounds: 60 }]);
    expect(pd.outages).toBe(1);
    expect(pr.scanner).toBe(false);
    expect(pr.rescans).toBeNull();
    expect(pr.outages).toBeNull();
    expect(pr.alerts).toEqual([]);
    expect(report.games.map((g) => [g.game, g.returns.rounds])).toEqual([
      ['pok-deng', 60],
      ['european-blackjack-practice', 60],
    ]);
  });

  it('keeps each currency of a table apart: its own band, its own alerts, never one sum', () => {
    const tables = [
      {
        id: 'pd',
        name: 'Pok Deng 1',
        game: 'pok-deng',
        currency: 'THB',
        currencies: { THB: {}, EUR: {} },
      },
    ] as unknown as TableDefinition[];
    const rows = Array.from({ length: 60 }, (_, i) => {
      const endedAt = new Date(Date.UTC(2026, 10, 30, 12, 0, i)).toISOString();
      const roundId = `pd-${i}`;
      return [
        // THB players lose every bet; EUR players win every bet at 2:1.
        { roundId, endedAt, currency: 'THB', betType: 'player', stake: 10_000, net: -10_000 },
        { roundId, endedAt, currency: 'EUR', betType: 'player', stake: 500, net: 500 },
      ];
    }).flat();
    const report = holdReport(
      tables,
      { lastRounds: new Map([['pd', rows]]), hourly: [], scanners: [] },
      { now: new Date('2026-11-30T13:00:00Z'), rounds: 200, hours: 24 },
    );
    const [pd] = report.tables;
    expect(pd.currencies.map((c) => [c.currency, c.returns.stake, c.returns.net])).toEqual([
      ['THB', 600_000, -600_000],
      ['EUR', 30_000, 30_000],
    ]);
    // The table's own figures are its default currency's alone.
    expect([pd.returns.stake, pd.returns.net]).toEqual([600_000, -600_000]);
    expect(pd.alerts.map((a) => [a.kind, a.message.slice(0, 10)])).toEqual([
      ['return-below', "Players' r"],
      ['return-above', 'EUR bets: '],
    ]);
    expect(report.games.map((g) => [g.game, g.currency, g.returns.stake])).toEqual([
      ['pok-deng', 'THB', 600_000],
      ['pok-deng', 'EUR', 30_000],
    ]);
  });
});
