import { newLuxTable, stepLux } from '.';
import { behind, cards, code, decide, open, results, run, seatBet, sit } from './lux.testing';

/**
 * Rules audit of games.md §1 and §3 (Blackjack Lux), played as whole rounds. Expected amounts are
 * worked out from the sheet in the comments, never read from the engine.
 */

const oneSeat = () => run(newLuxTable(), [sit(1, 'P1'), open]).state;

describe('rules audit: Blackjack Lux rounds (games.md §3)', () => {
  it('splits up to 4 hands (Default for game 2), never a fifth; a bet behind follows each split', () => {
    let s = run(oneSeat(), [
      seatBet(1, 'P1', 100),
      behind(1, 'B', 100),
      { type: 'follow-choice', seat: 1, playerId: 'B', followSplit: true },
      { type: 'close-betting' },
      ...cards('8S 7D 8H TC'), // seat 8 8 against dealer 7 + T = 17
    ]).state;
    s = run(s, [decide(1, 'P1', 'split'), ...cards('8D')]).state; // hand 1: 8 8 again
    s = run(s, [decide(1, 'P1', 'split'), ...cards('8C')]).state; // hand 1: 8 8 again (3 hands)
    s = run(s, [decide(1, 'P1', 'split'), ...cards('8S')]).state; // 4 hands; hand 1: 8 8
    expect(s.seats[0].hands).toHaveLength(4);
    expect(code(s, decide(1, 'P1', 'split'))).toBe('illegal-action'); // a fifth hand: never
    // Hand 1 (8 8) stands at 16; hands 2-4 receive T (18), T (18), 9 (17).
    s = run(s, [decide(1, 'P1', 'stand'), ...cards('TD')]).state;
    s = run(s, [decide(1, 'P1', 'stand'), ...cards('TH')]).state;
    s = run(s, [decide(1, 'P1', 'stand'), ...cards('9H')]).state;
    s = run(s, [decide(1, 'P1', 'stand')]).state;
    expect(s.phase).toBe('settled');
    // Against 17: 16 loses, 18 wins, 18 wins, 17 pushes. 400 staked: 0 + 200 + 200 + 100.
    expect(results(s)['P1 1/seat/main']).toEqual([400, 500, ['lose', 'win', 'win', 'push']]);
    expect(results(s)['B 1/behind/main']).toEqual([400, 500, ['lose', 'win', 'win', 'push']]);
  });

  it('aces split once only, one card each; A + ten after the split is 21 paid 1:1, not 3:2', () => {
    let s = run(oneSeat(), [
      seatBet(1, 'P1', 100),
      { type: 'close-betting' },
      ...cards('AS 9D AH 8C'), // dealer 17
    ]).state;
    s = run(s, [decide(1, 'P1', 'split'), ...cards('AD')]).state; // hand 1: A A, closed anyway
    expect(s.phase).toBe('playing');
    s = run(s, cards('KC')).state; // hand 2: A K = 21 (not BJ); both hands closed
    expect(s.seats[0].hands.map((h) => h.cards)).toEqual([
      ['AS', 'AD'],
      ['AH', 'KC'],
    ]);
    expect(s.phase).toBe('settled');
    // A A = soft 12 loses to 17; A K = 21 wins 1:1 (200, not 250).
    expect(results(s)['P1 1/seat/main']).toEqual([200, 200, ['lose', 'win']]);
  });

  it('early end on all seats BJ: a bet behind such a seat is paid 3:2 too (odd 125 -> 312)', () => {
    const s = run(oneSeat(), [
      seatBet(1, 'P1', 100),
      behind(1, 'B', 125),
      { type: 'close-betting' },
      ...cards('AS 9H KD 8C'),
    ]).state;
    expect(s.phase).toBe('settled');
    expect(s.dealer.draws).toEqual([]);
    expect(results(s)['P1 1/seat/main']).toEqual([100, 250, ['blackjack']]);
    expect(results(s)['B 1/behind/main']).toEqual([125, 312, ['blackjack']]); // 187.5 down
  });

  it('dealer BJ under a ten (peek): the round ends at once, pair bets still settle', () => {
    const s = run(oneSeat(), [
      seatBet(1, 'P1', 100, 100),
      { type: 'close-betting' },
      ...cards('5H KS 5D AC'), // seat 5H 5D (coloured pair), dealer K + A
    ]).state;
    expect(s.phase).toBe('settled');
    expect(results(s)['P1 1/seat/main']).toEqual([100, 0, ['lose']]);
    expect(results(s)['P1 1/seat/pairs']).toEqual([100, 1100, 'coloured-pair']); // 10:1
  });

  it('no insurance is offered under a ten; insurance under an ace costs half (odd 125 -> 62)', () => {
    let s = run(oneSeat(), [
      seatBet(1, 'P1', 125),
      { type: 'close-betting' },
      ...cards('9S AH 9D 7C'),
    ]).state;
    expect(s.phase).toBe('insurance');
    s = run(s, [
      { type: 'insurance', seat: 1, playerId: 'P1', take: true },
      { type: 'close-window' },
    ]).state;
    s = run(s, [decide(1, 'P1', 'stand')]).state; // 18 v soft 18: push
    expect(results(s)['P1 1/seat/insurance']).toEqual([62, 0, 'lose']);
    expect(results(s)['P1 1/seat/main']).toEqual([125, 125, ['push']]);
    const t = run(oneSeat(), [
      seatBet(1, 'P1', 100),
      { type: 'close-betting' },
      ...cards('9S KH 9D 7C'),
    ]).state;
    expect(t.phase).toBe('playing');
    expect(stepLux(t, { type: 'insurance', seat: 1, playerId: 'P1', take: true })).toHaveProperty(
      'rejected.code',
      'no-decision-window',
    );
  });
});

describe('rules audit: exact boundaries of games.md §0, §1, §3 (Blackjack Lux)', () => {
  it('a seat hitting to 21 with many cards is closed, the next seat is called, 21 wins 1:1', () => {
    let s = run(newLuxTable(), [
      sit(1, 'P1'),
      sit(3, 'P3'),
      open,
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100),
      { type: 'close-betting' },
      ...cards('2S TS 9D 3H KC 8D'), // seat 1: 2 3; seat 3: T K; dealer 9 + 8 = 17
    ]).state;
    s = run(s, [decide(1, 'P1', 'hit'), ...cards('AC')]).state; // 2 3 A = soft 16
    s = run(s, [decide(1, 'P1', 'hit'), ...cards('5H')]).state; // 2 3 A 5 = soft 21: closed
    expect(code(s, decide(1, 'P1', 'stand'))).toBe('not-your-turn'); // seat 3 is called
    s = run(s, [decide(3, 'P3', 'stand')]).state;
    expect(s.phase).toBe('settled');
    expect(results(s)['P1 1/seat/main']).toEqual([100, 200, ['win']]); // not 3:2
    expect(results(s)['P3 3/seat/main']).toEqual([100, 200, ['win']]); // 20 v 17
  });

  it('auto-play counts an ace 11: A + 5 (soft 16) stands at once and loses to 17', () => {
    let s = run(oneSeat(), [
      seatBet(1, 'P1', 100),
      { type: 'close-betting' },
      ...cards('AS 9D 5H 8C'),
    ]).state;
    s = run(s, [{ type: 'timeout', timer: 'decision', window: s.window }]).state;
    expect(s.phase).toBe('settled');
    expect(s.seats[0].hands[0].cards).toEqual(['AS', '5H']);
    expect(results(s)['P1 1/seat/main']).toEqual([100, 0, ['lose']]);
  });

  it('seat bet, bet behind and pair bet at exactly the minimum or maximum are accepted', () => {
    const limits = {
      seatBet: { min: 500, max: 10_000 },
      betBehind: { min: 100, max: 5_000 },
      pairBet: { min: 100, max: 1_000 },
    };
    const s = run(newLuxTable(limits), [sit(1, 'P1'), open]).state;
    expect([code(s, seatBet(1, 'P1', 500)), code(s, seatBet(1, 'P1', 10_000))]).toEqual([
      'accepted',
      'accepted',
    ]);
    expect([code(s, seatBet(1, 'P1', 499)), code(s, seatBet(1, 'P1', 10_001))]).toEqual([
      'invalid-amount',
      'invalid-amount',
    ]);
    expect([code(s, seatBet(1, 'P1', 500, 100)), code(s, seatBet(1, 'P1', 500, 1_000))]).toEqual([
      'accepted',
      'accepted',
    ]);
    expect([code(s, seatBet(1, 'P1', 500, 99)), code(s, seatBet(1, 'P1', 500, 1_001))]).toEqual([
      'invalid-amount',
      'invalid-amount',
    ]);
    expect([code(s, behind(1, 'B', 100)), code(s, behind(1, 'B', 5_000))]).toEqual([
      'accepted',
      'accepted',
    ]);
    expect([code(s, behind(1, 'B', 99)), code(s, behind(1, 'B', 5_001))]).toEqual([
      'invalid-amount',
      'invalid-amount',
    ]);
  });
});
