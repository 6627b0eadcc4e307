import { LuxInput, LuxState, newLuxTable, placeLuxBet, stepLux } from '.';
import { behind, code, open, results, run, seatBet, sit } from './lux.testing';

const cancel = (
  seat: number,
  playerId: string,
  betType: 'main' | 'bet-behind' | 'pairs',
): LuxInput => ({
  type: 'cancel-bet',
  seat,
  playerId,
  betType,
});

/** P1 on seat 1 (seat bet 100 with pairs 50), B1 and B2 behind seat 1, P3 on seat 3. */
function betting(): LuxState {
  return run(newLuxTable(), [
    sit(1, 'P1'),
    sit(3, 'P3'),
    open,
    seatBet(1, 'P1', 100, 150),
    seatBet(3, 'P3', 200),
    behind(1, 'B1', 100, 125),
    behind(1, 'B2', 300),
  ]).state;
}

describe('Blackjack Lux: a platform cancels a bet while betting is open', () => {
  it('cancels a seat bet with its pairs, removes the player and returns the bets behind that seat', () => {
    const { state, effects } = run(betting(), [cancel(1, 'P1', 'main')]);
    expect(effects.map((e) => e.type === 'event' && e.name)).toEqual([
      'bet-cancelled',
      'seat-removed',
      'bets-returned',
    ]);
    expect(effects[0]).toMatchObject({
      payload: {
        seat: 1,
        playerId: 'P1',
        parts: [
          { betType: 'main', amount: 100 },
          { betType: 'pairs', amount: 150 },
        ],
      },
    });
    expect(effects[1]).toMatchObject({ payload: { reason: 'seat-bet-cancelled' } });
    expect(state.seats[0].playerId).toBeNull();
    expect(state.seats[0].behind).toEqual([]);
    // The round plays seat 3 only; the bets behind seat 1 come back whole, P1's bet not at all.
    const closed = run(state, [{ type: 'close-betting' }]).state;
    expect(closed.dealOrder).toEqual([{ seat: 3 }, 'dealer-up', { seat: 3 }, 'dealer-hole']);
    const voided = run(closed, [{ type: 'void', reason: 'test' }]).state;
    expect(results(voided)).toEqual({
      'B1 1/behind/main': [100, 100, 'returned'],
      'B1 1/behind/pairs': [125, 125, 'returned'],
      'B2 1/behind/main': [300, 300, 'returned'],
      'P3 3/seat/main': [200, 200, 'void'],
    });
  });

  it('cancels one bet behind (with its pairs) and leaves the seat and the other bets as they are', () => {
    const { state, effects } = run(betting(), [cancel(1, 'B1', 'bet-behind')]);
    expect(effects).toHaveLength(1);
    expect(state.seats[0].behind.map((b) => b.playerId)).toEqual(['B2']);
    expect(state.seats[0].bet).toEqual({ main: 100, pairs: 150, status: 'placed' });
  });

  it('refuses after betting closed (betting-closed)', () => {
    const closed = run(betting(), [{ type: 'close-betting' }]).state;
    expect(code(closed, cancel(1, 'P1', 'main'))).toBe('betting-closed');
  });

  it("refuses an unknown bet and another player's bet alike (unknown-bet)", () => {
    const s = betting();
    expect(code(s, cancel(2, 'P1', 'main'))).toBe('unknown-bet');
    expect(code(s, cancel(1, 'P3', 'main'))).toBe('unknown-bet');
    expect(code(s, cancel(1, 'B9', 'bet-behind'))).toBe('unknown-bet');
    expect(code(s, cancel(1, 'casino-b:B1', 'bet-behind'))).toBe('unknown-bet');
  });

  it('answers a repeat bet-already-cancelled, and refuses the same bet placed again this round', () => {
    const { state } = run(betting(), [cancel(1, 'B1', 'bet-behind')]);
    expect(code(state, cancel(1, 'B1', 'bet-behind'))).toBe('bet-already-cancelled');
    const again = placeLuxBet(state, {
      playerId: 'B1',
      betType: 'bet-behind',
      seat: 1,
      amount: 100,
      sidePairs: 0,
    });
    expect('rejected' in again && again.rejected.code).toBe('bet-cancelled');
    expect('rejected' in stepLux(state, behind(1, 'B3', 100))).toBe(false);
  });
});
