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
  net,
});

describe('the settlement report as CSV', () => {
  it('keeps a line per day, table and currency: two currencies of one table are two records', () => {
    const csv = settlementReportCsv([line('EUR', 2_000, -2_000), line('THB', 100_000, 50_000)]);
    expect(csv.split('\r\n')).toEqual([
      'day,tableId,currency,rounds,bets,stake,payout,refunds,cancellations,net',
      '2026-12-02,ibj-fx,EUR,1,1,2000,0,0,0,-2000',
      '2026-12-02,ibj-fx,THB,1,1,100000,150000,0,0,50000',
      '',
    ]);
  });

  it('answers the header alone for a day without settlements', () => {
    expect(settlementReportCsv([])).toBe(
      'day,tableId,currency,rounds,bets,stake,payout,refunds,cancellations,net\r\n',
    );
  });
});
