import type { AdapterResult } from './game-adapter';
import { BlackjackLuxAdapter } from './blackjack-lux/blackjack-lux.adapter';
import { InfiniteBlackjackAdapter } from './infinite-blackjack/infinite-blackjack.adapter';

const windows = { bettingWindowMs: 15_000, decisionWindowMs: 10_000 };

function ok<S>(result: AdapterResult<S>): S {
  if ('rejected' in result) throw new Error(result.rejected.message);
  return result.state;
}

/**
 * A refusal goes back to the platform that sent the command: it names the player as that
 * platform does (`alice`), or not at all, never by the key the core glues the platform and the
 * player into (`casino-a:alice`).
 */
describe("refusals name no player by the core's key", () => {
  it('Infinite Blackjack: a second bet of the same player', () => {
    const adapter = new InfiniteBlackjackAdapter(windows);
    const bet = { betId: 'b', playerId: 'casino-a:alice', betType: 'main', amount: 1_000 };
    const state = ok(
      adapter.placeBet(
        ok(adapter.startRound({ roundId: 'r1', shoeNumber: 1, roundNumber: 1 })),
        bet,
      ),
    );
    const again = adapter.placeBet(state, bet);
    expect(again).toMatchObject({ rejected: { code: 'duplicate-bet' } });
    expect(JSON.stringify(again)).not.toContain('casino-a:');
  });

  it('Infinite Blackjack: a decision of a player without a bet', () => {
    const adapter = new InfiniteBlackjackAdapter(windows);
    const bet = { betId: 'b', playerId: 'casino-a:alice', betType: 'main', amount: 1_000 };
    let state = ok(
      adapter.placeBet(
        ok(adapter.startRound({ roundId: 'r1', shoeNumber: 1, roundNumber: 1 })),
        bet,
      ),
    );
    state = ok(adapter.closeBetting(state));
    // Player hand 9 7 against a dealer's 6: no insurance, a decision window opens.
    for (const card of ['9C', '6D', '7H', '5S'] as const) {
      if (adapter.phase(state) === 'deciding') break;
      state = ok(adapter.card(state, card));
    }
    expect(adapter.phase(state)).toBe('deciding');
    const refused = adapter.decide(state, { playerId: 'casino-a:bob', action: 'hit' });
    expect(refused).toMatchObject({ rejected: { code: 'unknown-player' } });
    expect(JSON.stringify(refused)).not.toContain('casino-a:');
  });

  it('Blackjack Lux: a second seat bet of the same player on its seat', () => {
    const adapter = new BlackjackLuxAdapter(windows);
    const bet = {
      betId: 'b',
      playerId: 'casino-a:alice',
      betType: 'main',
      spot: '2',
      amount: 1_000,
    };
    const state = ok(
      adapter.placeBet(
        ok(adapter.startRound({ roundId: 'r1', shoeNumber: 1, roundNumber: 1 })),
        bet,
      ),
    );
    const again = adapter.placeBet(state, bet);
    expect(again).toMatchObject({ rejected: { code: 'duplicate-bet' } });
    expect(JSON.stringify(again)).not.toContain('casino-a:');
  });

  it('Blackjack Lux: a decision naming a seat that is no seat number says so, not "name the seat"', () => {
    const adapter = new BlackjackLuxAdapter(windows);
    const state = ok(adapter.startRound({ roundId: 'r1', shoeNumber: 1, roundNumber: 1 }));
    for (const seat of ['99999999999999999999', 'abc', '1/2', '0']) {
      expect(adapter.decide(state, { playerId: 'casino-a:alice', action: 'hit', seat })).toEqual({
        rejected: {
          code: 'unknown-seat',
          message: `"${seat}" names no seat: Lux seats are 1-7`,
        },
      });
    }
  });
});
