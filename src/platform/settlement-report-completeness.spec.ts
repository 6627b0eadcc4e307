import { reportCompleteness } from './settlement-report-completeness';

const END = new Date('2026-12-03T00:00:00Z');
const at = (iso: string) => new Date(iso);

describe('whether a settlement report is final', () => {
  it('is not while its last day is not over, even without an open round', () => {
    expect(reportCompleteness(END, at('2026-12-02T23:59:59.999Z'), [])).toEqual({
      final: false,
      openRounds: 0,
      openRoundsByTable: [],
    });
  });

  it('is once the last day is over and no round of its days is open', () => {
    expect(reportCompleteness(END, END, []).final).toBe(true);
    expect(reportCompleteness(END, at('2027-01-01T00:00:00Z'), []).final).toBe(true);
  });

  it('is not while a round of its days still holds bets, and counts them overall and per table', () => {
    const open = [
      { tableId: 'ibj-1', rounds: 2 },
      { tableId: 'pd-1', rounds: 1 },
    ];
    expect(reportCompleteness(END, at('2026-12-05T10:00:00Z'), open)).toEqual({
      final: false,
      openRounds: 3,
      openRoundsByTable: open,
    });
  });

  it('leaves a table without open rounds out', () => {
    const completeness = reportCompleteness(END, at('2026-12-05T10:00:00Z'), [
      { tableId: 'ibj-1', rounds: 0 },
    ]);
    expect(completeness).toEqual({ final: true, openRounds: 0, openRoundsByTable: [] });
  });
});
