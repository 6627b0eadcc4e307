import type { SettlementReportLine } from '../history/reader/platform-records.reader';
import { settlementReportCsv } from './settlement-report-csv';

const line = (currency: string, stake: number, net: number): SettlementReportLine => ({
  day: '2026-12-02',
  tableId: 'ibj-fx',
  currency,
  rounds: 1,
  bets: 1,
  stake,
  payout: stake + net,
  refunds: 0,
  cancellations: 0,
  cancelledStake: 0,
  net,
});

const HEADER =
  'day,tableId,currency,rounds,bets,stake,payout,refunds,cancellations,net,' +
  'cancelledStake,final,openRounds';
const FINAL = { final: true, openRounds: 0 };

describe('the settlement report as CSV', () => {
  it('keeps a line per day, table and currency: two currencies of one table are two records', () => {
    const csv = settlementReportCsv(
      [line('EUR', 2_000, -2_000), line('THB', 100_000, 50_000)],
      FINAL,
    );
    expect(csv.split('\r\n')).toEqual([
      HEADER,
      '2026-12-02,ibj-fx,EUR,1,1,2000,0,0,0,-2000,0,true,0',
      '2026-12-02,ibj-fx,THB,1,1,100000,150000,0,0,50000,0,true,0',
      '',
    ]);
  });

  it('keeps the first ten columns where they were and adds the cancelled stake after net', () => {
    const cancelled = { ...line('EUR', 2_000, -500), cancellations: 3, cancelledStake: 1_500 };
    const [header, record] = settlementReportCsv([cancelled], FINAL).split('\r\n');
    expect(header.split(',').slice(0, 10)).toEqual([
      'day',
      'tableId',
      'currency',
      'rounds',
      'bets',
      'stake',
      'payout',
      'refunds',
      'cancellations',
      'net',
    ]);
    const field = Object.fromEntries(
      header.split(',').map((name, i) => [name, record.split(',')[i]]),
    );
    expect(field).toMatchObject({ cancellations: '3', cancelledStake: '1500', net: '-500' });
  });

  it('says on every record, as true or false, whether the figures are final and how many rounds are open', () => {
    const csv = settlementReportCsv([line('EUR', 2_000, 0), line('THB', 3_000, 0)], {
      final: false,
      openRounds: 2,
    });
    const records = csv.split('\r\n').slice(1, -1);
    expect(records.map((r) => r.split(',').slice(-2))).toEqual([
      ['false', '2'],
      ['false', '2'],
    ]);
    // Every record has the header's number of fields: no trailer for a CSV reader to trip on.
    expect(
      new Set(
        csv
          .split('\r\n')
          .slice(0, -1)
          .map((r) => r.split(',').length),
      ),
    ).toEqual(new Set([13]));
  });

  it('answers the header alone for a day without settlements', () => {
    expect(settlementReportCsv([], { final: false, openRounds: 1 })).toBe(`${HEADER}\r\n`);
  });
});
