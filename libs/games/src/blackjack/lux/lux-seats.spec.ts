import { LuxEffect, luxSeatEligibility, newLuxTable, placeLuxBet, refuseLuxSeatBet } from '.';
import {
  behind,
  cards,
  code,
  decide,
  open,
  real,
  results,
  run,
  seatBet,
  sit,
  twoSeats,
} from './lux.testing';

describe('Blackjack Lux seats (games.md §3)', () => {
  it('seat rules: who may sit, at most 2 seats, taken seats', () => {
    const s = run(newLuxTable(), [sit(1, 'P1'), sit(2, 'P1')]).state;
    expect(luxSeatEligibility(s, 3, real('P1'))?.code).toBe('too-many-seats');
    expect(luxSeatEligibility(s, 1, real('P9'))?.code).toBe('seat-taken');
    expect(luxSeatEligibility(s, 4, { playerId: 'D', demo: true, funCurrency: false })?.code).toBe(
      'seat-not-allowed',
    );
    expect(luxSeatEligibility(s, 4, { playerId: 'F', demo: false, funCurrency: true })?.code).toBe(
      'seat-not-allowed',
    );
    expect(luxSeatEligibility(s, 8, real('P9'))?.code).toBe('unknown-seat');
    // A demo account may still bet behind.
    const t = run(s, [open, seatBet(1, 'P1', 100)]).state;
    expect(code(t, behind(1, 'D', 100))).toBe('accepted');
  });

  it('removes a seat with no valid seat bet and returns every bet behind and pair bet on it', () => {
    const s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100, 100),
      { type: 'seat-bet-failed', seat: 3, playerId: 'P3' },
      behind(3, 'B', 100, 100),
      { type: 'close-betting' },
    ]);
    expect(s.state.seats[2].playerId).toBeNull();
    expect(s.effects).toContainEqual(
      expect.objectContaining({
        name: 'seat-removed',
        payload: expect.objectContaining({ seat: 3 }),
      }),
    );
    const r = run(s.state, [...cards('TS 9D TH 7C'), decide(1, 'P1', 'stand')]).state;
    expect(results(r)['B 3/behind/main']).toEqual([100, 100, 'returned']);
    expect(results(r)['B 3/behind/pairs']).toEqual([100, 100, 'returned']);
  });

  it('one round of grace without a seat bet, removed in the round after', () => {
    let s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      behind(3, 'B', 100),
      { type: 'close-betting' },
    ]).state;
    expect(s.seats[2].playerId).toBe('P3'); // sits out this round
    s = run(s, [...cards('TS 9D TH 7C'), decide(1, 'P1', 'stand'), ...cards('2S')]).state;
    expect(results(s)['B 3/behind/main']).toEqual([100, 100, 'returned']);
    s = run(s, [open, seatBet(1, 'P1', 100), { type: 'close-betting' }]).state;
    expect(s.seats[2].playerId).toBeNull();
  });

  describe('seat rules of games.md §3, read literally', () => {
    /** P3 played round 1 on seat 3 (stand on 19 against 17) and P1 played seat 1. */
    const afterPlayedRound = () =>
      run(twoSeats(), [
        seatBet(1, 'P1', 100),
        seatBet(3, 'P3', 100),
        { type: 'close-betting' },
        ...cards('TS TC 9D TH 9C 8C'),
        decide(1, 'P1', 'stand'),
        decide(3, 'P3', 'stand'),
      ]).state;
    const removed = (effects: LuxEffect[]) =>
      effects
        .filter((e) => e.type === 'event' && e.name === 'seat-removed')
        .map((e) => (e.type === 'event' ? e.payload : null));

    it('a refused seat bet loses the seat when the countdown ends, with its bets returned', () => {
      // games.md §3: "If, when the betting countdown ends, a seated player has no valid seat bet
      // (too small, or it failed), the player is removed from the seat, and every bet-behind and
      // pair bet on that seat is returned."
      let s = run(afterPlayedRound(), [{ ...open, roundId: 'r2' }]).state;
      s = run(s, [seatBet(1, 'P1', 100), behind(3, 'B', 100, 100)]).state;
      // P3's seat bet of 50 is below the minimum (100): refused, and recorded as refused.
      expect(code(s, seatBet(3, 'P3', 50))).toBe('invalid-amount');
      const refusal = refuseLuxSeatBet(s, 'P3', 3, 'below-minimum');
      expect(refusal).toEqual({
        type: 'seat-bet-failed',
        seat: 3,
        playerId: 'P3',
        reason: 'below-minimum',
      });
      s = run(s, [refusal!]).state;
      expect(s.seats[2].playerId).toBe('P3'); // still seated until the countdown ends
      // No grace round for a refused bet: removed now, though P3 played the round before.
      const closed = run(s, [{ type: 'close-betting' }]);
      expect(closed.state.seats[2].playerId).toBeNull();
      expect(removed(closed.effects)).toEqual([
        { seat: 3, playerId: 'P3', reason: 'removed-no-valid-bet' },
      ]);
      const r = run(closed.state, [...cards('TS 9D TH 8C'), decide(1, 'P1', 'stand')]).state;
      expect(results(r)['B 3/behind/main']).toEqual([100, 100, 'returned']);
      expect(results(r)['B 3/behind/pairs']).toEqual([100, 100, 'returned']);
      // A failed wallet debit is refused the same way.
      expect(refuseLuxSeatBet(run(afterPlayedRound(), [open]).state, 'P3', 3, 'failed')).toEqual(
        expect.objectContaining({ reason: 'failed' }),
      );
    });

    it('a refusal changes nothing for a player with a valid seat bet or another seat', () => {
      const s = run(afterPlayedRound(), [open, seatBet(3, 'P3', 100)]).state;
      expect(refuseLuxSeatBet(s, 'P3', 3, 'below-minimum')).toBeNull();
      expect(refuseLuxSeatBet(s, 'P1', 3, 'below-minimum')).toBeNull();
      expect(refuseLuxSeatBet(s, 'P9', 5, 'below-minimum')).toBeNull();
    });

    it('no seat bet: stays for that round, removed in the round after, whether or not they bet', () => {
      // games.md §3: "A player who held a seat in one round and places no seat bet in the next
      // may stay for that round but is removed in the round after."
      for (const betsAgain of [false, true]) {
        // Round 2: P3 places no seat bet and sits it out, still seated.
        let s = run(afterPlayedRound(), [{ ...open, roundId: 'r2' }, seatBet(1, 'P1', 100)]).state;
        const sitOut = run(s, [{ type: 'close-betting' }]);
        expect(sitOut.state.seats[2].playerId).toBe('P3');
        expect(removed(sitOut.effects)).toEqual([]);
        s = run(sitOut.state, [...cards('TS 9D TH 8C'), decide(1, 'P1', 'stand')]).state;
        // Round 3: removed as it opens, before any bet of theirs could keep the seat.
        const third = run(s, [{ ...open, roundId: 'r3' }]);
        expect(removed(third.effects)).toEqual([
          { seat: 3, playerId: 'P3', reason: 'no-seat-bet-last-round' },
        ]);
        expect(third.state.seats[2].playerId).toBeNull();
        expect(code(third.state, seatBet(3, 'P3', 100))).toBe('not-your-turn');
        if (betsAgain) {
          // A new seat bet is a new occupancy of a free seat, not the old seat kept.
          const again = placeLuxBet(third.state, {
            playerId: 'P3',
            betType: 'main',
            seat: 3,
            amount: 100,
            sidePairs: 0,
          });
          expect(
            'rejected' in again
              ? again.rejected.code
              : again.effects.map((e) => e.type === 'event' && e.name),
          ).toEqual(['seat-taken', 'seat-bet-accepted']);
        }
      }
    });

    it('a player who bets again in the grace round keeps the seat', () => {
      let s = run(afterPlayedRound(), [{ ...open, roundId: 'r2' }, seatBet(1, 'P1', 100)]).state;
      s = run(s, [
        { type: 'close-betting' },
        ...cards('TS 9D TH 8C'),
        decide(1, 'P1', 'stand'),
      ]).state;
      // P3 sat round 2 out; had P3 bet in round 2 instead, round 3 keeps P3 seated.
      let t = run(afterPlayedRound(), [{ ...open, roundId: 'r2' }, seatBet(3, 'P3', 100)]).state;
      t = run(t, [
        { type: 'close-betting' },
        ...cards('TS 9D TH 8C'),
        decide(3, 'P3', 'stand'),
      ]).state;
      expect(run(t, [{ ...open, roundId: 'r3' }]).state.seats[2].playerId).toBe('P3');
      expect(run(s, [{ ...open, roundId: 'r3' }]).state.seats[2].playerId).toBeNull();
    });
  });

  it('removes a seated player whose balance is below the minimum seat bet at the start', () => {
    const s = run(newLuxTable(), [
      sit(1, 'P1'),
      sit(2, 'P2'),
      { type: 'open-betting', roundId: 'r', roundOfShoe: 1, balances: { P1: 99, P2: 100 } },
    ]).state;
    expect(s.seats.map((x) => x.playerId).slice(0, 2)).toEqual([null, 'P2']);
  });
});
