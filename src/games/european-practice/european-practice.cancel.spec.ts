import type { AdapterResult, CancelCommand } from '../game-adapter';
import { EuropeanPracticeAdapter } from './european-practice.adapter';
import { practiceBetIdOf } from './european-practice.records';
import type { PracticeState } from './european-practice.state';

const adapter = new EuropeanPracticeAdapter({ bettingWindowMs: 5_000, decisionWindowMs: 8_000 });

function ok(result: AdapterResult<PracticeState>) {
  if ('rejected' in result) throw new Error(result.rejected.message);
  return result;
}

const code = (result: AdapterResult<PracticeState>) =>
  'rejected' in result ? result.rejected.code : 'accepted';

/** alice on seat 3 and bob on seat 5 of round r1, betting open. */
function betting(): PracticeState {
  let state = ok(adapter.startRound({ roundId: 'r1', shoeNumber: 1, roundNumber: 1 })).state;
  for (const [playerId, spot] of [
    ['casino-a:alice', '3'],
    ['casino-a:bob', '5'],
  ]) {
    state = ok(
      adapter.placeBet(state, { betId: 'x', playerId, betType: 'main', spot, amount: 500 }),
    ).state;
  }
  return state;
}

const cancel = (playerId: string, seat: number): CancelCommand => ({
  commandId: 'c-1',
  playerId,
  bet: {
    betId: practiceBetIdOf('r1', playerId, seat),
    roundId: 'r1',
    betType: 'main',
    spot: String(seat),
    answeredBetId: 'answered-1',
    commandId: 'bet-cmd-1',
  },
});

describe('European practice table: a platform cancels a seat bet while betting is open', () => {
  it('frees the seat, writes the bet cancelled (whole stake back) and announces BetCancelled', () => {
    const result = ok(adapter.cancelBet(betting(), cancel('casino-a:alice', 3)));
    expect(result.state.bets.map((b) => b.playerId)).toEqual(['bot:1', 'bot:2', 'casino-a:bob']);
    expect(result.cancellations).toEqual([
      {
        betId: 'r1/casino-a:alice/seat-3/main',
        playerId: 'casino-a:alice',
        betType: 'main',
        spot: '3',
        stake: 500,
        returned: 500,
        net: 0,
        outcome: 'cancelled',
        roundedDown: '0',
      },
    ]);
    expect(result.settlements ?? []).toEqual([]);
    expect(result.events).toEqual([
      {
        type: 'BetCancelled',
        visibility: 'public',
        payload: {
          betId: 'answered-1',
          betCommandId: 'bet-cmd-1',
          playerId: 'casino-a:alice',
          betType: 'main',
          spot: '3',
          parts: [{ betType: 'main', amount: 500 }],
          returned: 500,
        },
      },
    ]);
  });

  it('refuses after betting closed', () => {
    const closed = ok(adapter.closeBetting(betting())).state;
    expect(code(adapter.cancelBet(closed, cancel('casino-a:alice', 3)))).toBe('betting-closed');
  });

  it("refuses an unknown bet and another player's bet alike (unknown-bet)", () => {
    expect(code(adapter.cancelBet(betting(), cancel('casino-a:alice', 4)))).toBe('unknown-bet');
    expect(code(adapter.cancelBet(betting(), cancel('casino-b:alice', 3)))).toBe('unknown-bet');
    expect(code(adapter.cancelBet(betting(), cancel('casino-a:bob', 3)))).toBe('unknown-bet');
  });

  it('answers a repeat bet-already-cancelled and keeps the seat from the same player this round', () => {
    const state = ok(adapter.cancelBet(betting(), cancel('casino-a:alice', 3))).state;
    expect(code(adapter.cancelBet(state, cancel('casino-a:alice', 3)))).toBe(
      'bet-already-cancelled',
    );
    const again = { betId: 'y', betType: 'main', spot: '3', amount: 500 };
    expect(code(adapter.placeBet(state, { ...again, playerId: 'casino-a:alice' }))).toBe(
      'bet-cancelled',
    );
    expect(code(adapter.placeBet(state, { ...again, playerId: 'casino-a:carol' }))).toBe(
      'accepted',
    );
  });
});
