import type { LuxState } from '@studio/games/blackjack';
import type { AdapterResult, CancelCommand } from '../game-adapter';
import { BlackjackLuxAdapter, luxBetIdOf } from './blackjack-lux.adapter';

const adapter = new BlackjackLuxAdapter({ bettingWindowMs: 15_000, decisionWindowMs: 10_000 });

function ok(result: AdapterResult<LuxState>) {
  if ('rejected' in result) throw new Error(result.rejected.message);
  return result;
}

/** a:p1 holds seat 2 (seat bet 1,000 with pairs 200); a:b1 and b:b2 bet behind it. */
function betting(): LuxState {
  let state = ok(adapter.startRound({ roundId: 'r1', shoeNumber: 1, roundNumber: 1 })).state;
  const bets = [
    { playerId: 'a:p1', betType: 'main', amount: 1_000, sideBets: { pairs: 200 } },
    { playerId: 'a:b1', betType: 'bet-behind', amount: 500 },
    { playerId: 'b:b2', betType: 'bet-behind', amount: 300, sideBets: { pairs: 100 } },
  ];
  for (const bet of bets)
    state = ok(adapter.placeBet(state, { betId: 'x', spot: '2', ...bet })).state;
  return state;
}

const cancel = (playerId: string, betType: string): CancelCommand => ({
  playerId,
  bet: {
    betId: luxBetIdOf('r1', playerId, 2, betType),
    roundId: 'r1',
    betType,
    spot: '2',
    answeredBetId: 'answered',
    commandId: 'bet-cmd',
  },
});

describe('Blackjack Lux adapter: CancelBet', () => {
  it('cancels a seat bet with its pairs and returns the bets behind the seat, settled returned', () => {
    const result = ok(adapter.cancelBet(betting(), cancel('a:p1', 'main')));
    expect(result.cancellations?.map((r) => [r.betId, r.stake, r.returned, r.outcome])).toEqual([
      ['r1/a:p1/seat-2/main', 1_000, 1_000, 'cancelled'],
      ['r1/a:p1/seat-2/pairs', 200, 200, 'cancelled'],
    ]);
    expect(result.events.map((e) => e.type)).toEqual([
      'BetCancelled',
      'SeatRemoved',
      'BetsReturned',
    ]);
    expect(result.events[0].payload).toMatchObject({ betId: 'answered', returned: 1_200 });
    // Nobody plays now: the round ends at the close with the bets behind returned whole.
    const closed = ok(adapter.closeBetting(result.state));
    expect(closed.settlements?.map((s) => [s.betId, s.stake, s.returned, s.outcome])).toEqual([
      ['r1/a:b1/seat-2/bet-behind', 500, 500, 'returned'],
      ['r1/b:b2/seat-2/bet-behind', 300, 300, 'returned'],
      ['r1/b:b2/seat-2/pairs', 100, 100, 'returned'],
    ]);
  });

  it("cancels one bet behind; another player's or an unknown bet is unknown-bet", () => {
    const result = ok(adapter.cancelBet(betting(), cancel('a:b1', 'bet-behind')));
    expect(result.cancellations?.map((r) => r.betId)).toEqual(['r1/a:b1/seat-2/bet-behind']);
    const code = (c: CancelCommand) => {
      const r = adapter.cancelBet(betting(), c);
      return 'rejected' in r ? r.rejected.code : 'accepted';
    };
    expect(code({ ...cancel('a:b1', 'bet-behind'), playerId: 'a:b9' })).toBe('unknown-bet');
    expect(code(cancel('a:b1', 'main'))).toBe('unknown-bet');
    expect(code(cancel('a:b1', 'insurance'))).toBe('unknown-bet');
  });

  it('refuses after betting closed', () => {
    const closed = ok(adapter.closeBetting(betting())).state;
    const r = adapter.cancelBet(closed, cancel('a:p1', 'main'));
    expect('rejected' in r && r.rejected.code).toBe('betting-closed');
  });
});
