import {
  InfiniteInput,
  infinitePlayerSettlements,
  InfiniteState,
  newInfiniteTable,
  stepInfinite,
} from '.';
import { run } from './infinite.testing';

const open: InfiniteInput = { type: 'open-betting', roundId: 'r1', roundOfShoe: 1 };
const bet = (playerId: string, main: number, pairs = 0): InfiniteInput => ({
  type: 'bet',
  playerId,
  main,
  side: pairs ? { pairs } : {},
});
const cancel = (playerId: string): InfiniteInput => ({ type: 'cancel-bet', playerId });
const code = (state: InfiniteState, input: InfiniteInput) => {
  const r = stepInfinite(state, input);
  return 'rejected' in r ? r.rejected.code : 'accepted';
};

describe('Infinite Blackjack: a platform cancels a bet while betting is open', () => {
  const betting = () => run(newInfiniteTable(), [open, bet('A', 100, 25), bet('B', 200)]).state;

  it('takes the player (main and side bets) out of the round: not dealt for, not settled', () => {
    const { state, effects } = run(betting(), [cancel('A')]);
    expect(effects).toEqual([
      {
        type: 'event',
        name: 'bet-cancelled',
        hidden: false,
        payload: { playerId: 'A', main: 100, side: { pairs: 25 } },
      },
    ]);
    expect(state.players.ids).toEqual(['B']);
    expect(state.players.main).toEqual([200]);
    expect(state.players.side.pairs).toEqual([0]);
    // The round goes on with B alone: A's money appears in no settlement (a void refunds B only).
    const ended = run(state, [{ type: 'close-betting' }, { type: 'void', reason: 'test' }]).state;
    expect(ended.phase).toBe('voided');
    expect([...infinitePlayerSettlements(ended)].map((p) => p.playerId)).toEqual(['B']);
    expect(ended.sideTotals.pairs).toBe(0);
  });

  it('refuses after betting closed (betting-closed), and leaves the bet standing', () => {
    const closed = run(betting(), [{ type: 'close-betting' }]).state;
    expect(code(closed, cancel('A'))).toBe('betting-closed');
    expect(closed.players.ids).toEqual(['A', 'B']);
  });

  it("refuses a player without a bet (unknown-bet): another player's bet is never touched", () => {
    const s = betting();
    expect(code(s, cancel('C'))).toBe('unknown-bet');
    // Another platform's player with the same bare id is another key: unknown too.
    expect(code(s, cancel('casino-b:A'))).toBe('unknown-bet');
  });

  it('answers a second cancellation bet-already-cancelled', () => {
    const { state } = run(betting(), [cancel('A')]);
    expect(code(state, cancel('A'))).toBe('bet-already-cancelled');
  });
});
