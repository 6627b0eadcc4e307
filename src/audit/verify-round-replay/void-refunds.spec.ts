import { voidRefundMismatches } from './void-refunds';

describe('voided round refunds (games.md §0: every bet refunded, no winners, no losers)', () => {
  const bets = [
    { betId: 'b1', status: 'refunded' },
    { betId: 'b2', status: 'refunded' },
  ];
  const refund = (betId: string, stake: number) => ({
    betId,
    stake,
    returned: stake,
    net: 0,
    outcome: 'void-refund',
  });

  it('accepts a void that refunded every bet its stake', () => {
    expect(voidRefundMismatches(bets, [refund('b1', 2000), refund('b2', 1000)])).toEqual([]);
  });

  it('names a "refund" paying more than the stake', () => {
    const paid = { ...refund('b1', 2000), returned: 200_000, net: 198_000, outcome: 'player-wins' };
    expect(voidRefundMismatches(bets, [paid, refund('b2', 1000)])).toEqual([
      { field: 'settlement[0].returned', stored: 200_000, replayed: 2000 },
      { field: 'settlement[0].net', stored: 198_000, replayed: 0 },
    ]);
  });

  it('names a bet left without its refund, but not a cancelled one', () => {
    expect(
      voidRefundMismatches([...bets, { betId: 'b3', status: 'cancelled' }], [refund('b1', 2000)]),
    ).toEqual([{ field: 'bet b2 refund', stored: null, replayed: 'refund' }]);
  });
});
