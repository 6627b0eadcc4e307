import { PlayerAction } from '../core/player-hands';
import { botView, isRejection, newEuropeanTable } from './engine';
import { EuropeanState } from './state';
import { stackedShoe, step } from './european.testing';

/**
 * Rules audit of games.md §1 and §4 (European practice table), whole rounds from a stacked
 * 6-deck shoe. Scores are typed in from the sheet: win +1, loss -1, push 0, BJ +1.5 per unit.
 */

function table(prefix: string, seats = 1): EuropeanState {
  const s = step(newEuropeanTable(), {
    type: 'load-shoe',
    order: stackedShoe(prefix),
    shuffle: { method: 'fisher-yates', source: 'seeded', seed: 0 },
  });
  const bets = Array.from({ length: seats }, (_, i) => ({
    seat: i + 1,
    occupant: { kind: 'player' as const, playerId: `p${i + 1}` },
    stake: 100,
  }));
  return step(s, { type: 'start-round', bets });
}
const play = (s: EuropeanState, seat: number, ...actions: PlayerAction[]) =>
  actions.reduce((x, action) => step(x, { type: 'decide', seat, action }), s);
const legal = (s: EuropeanState, seat = 1) => {
  const v = botView(s, seat);
  if (isRejection(v)) throw new Error(v.message);
  return v.legalActions;
};
const scores = (s: EuropeanState) => s.round!.seats.map((x) => x.score);

describe('rules audit: European practice table (games.md §4)', () => {
  it('the dealer stands on soft 17 (A + 6): player 18 wins +1', () => {
    // Seat 1: TS, up 6H, seat 1: 8D, hidden AC.
    const s = play(table('TS 6H 8D AC'), 1, 'stand');
    expect(s.round!.phase).toBe('settled');
    expect(s.round!.dealer.draws).toEqual([]);
    expect(scores(s)).toEqual([1]);
  });

  it('the dealer draws to 17: 16 hits, a soft 17 reached by drawing stands', () => {
    // Dealer 9 + 5 = 14, draws A -> 15, draws 2 -> 17. Player 19 wins.
    const s = play(table('TS 9H 9D 5C AS 2D'), 1, 'stand');
    expect(s.round!.dealer.draws).toEqual(['AS', '2D']);
    expect(scores(s)).toEqual([1]);
  });

  it('no peek: a dealer BJ takes the doubled stake too (-2); player BJ against it pushes (0)', () => {
    // Seat 1: 6S 5D (11), seat 2: AS KH (BJ). Dealer TC up, AD hidden (BJ, revealed after play).
    let s = table('6S AS TC 5D KH AD 9C', 2);
    expect(legal(s)).toEqual(['hit', 'stand', 'double']); // no insurance, no surrender
    s = play(s, 1, 'double'); // 11 + 9 = 20, closed
    expect(s.round!.phase).toBe('settled');
    expect(scores(s)).toEqual([-2, 0]);
  });

  it('double after a split is allowed (DAS); split aces take one card; 21 after a split is not BJ', () => {
    let s = table('9S 7H 9D TC 2C');
    s = play(s, 1, 'split'); // hand 1: 9S 2C = 11
    expect(legal(s)).toContain('double');
    let a = table('AS 7H AD TC KC 9H');
    a = play(a, 1, 'split'); // A K = 21 (closed), A 9 = 20 (closed): no decision
    expect(a.round!.phase).toBe('settled');
    // Dealer 7 T = 17: two wins of +1, the split 21 scores +1 (not +1.5).
    expect(scores(a)).toEqual([2]);
  });

  it('splits any two cards of equal value (J and Q), up to 4 hands', () => {
    let s = table('JS 7H QD TC KC KH KD');
    s = play(s, 1, 'split'); // J K
    s = play(s, 1, 'split'); // J K -> 3 hands, J K again
    s = play(s, 1, 'split'); // 4 hands
    expect(s.round!.seats[0].player.hands).toHaveLength(4);
    expect(legal(s)).not.toContain('split');
  });
});

describe('rules audit: exact boundaries of games.md §0, §1, §4 (European practice table)', () => {
  it('21 with five cards scores +1 against 20 (an ordinary 21, not BJ)', () => {
    // Seat 1: 2S 3H; dealer KD up, TC hidden (20, revealed after play: no BJ).
    let s = play(table('2S KD 3H TC AS 4C AD'), 1, 'hit', 'hit'); // 2 3 A 4 = soft 20
    expect(s.round!.phase).toBe('playing');
    s = play(s, 1, 'hit'); // + A = soft 21: closed, the dealer stands on 20
    expect(s.round!.phase).toBe('settled');
    expect(scores(s)).toEqual([1]);
  });

  it('a missing decision counts an ace 11: A + 5 (soft 16) stands, A + A (soft 12) stands', () => {
    // Seat 1: AS 5H = soft 16 against 9 + 8 = 17; the timeout stands: -1.
    let s = step(table('AS 9D 5H 8C'), { type: 'timeout', seat: 1 });
    expect(s.round!.seats[0].player.hands[0].cards).toEqual(['AS', '5H']);
    expect(scores(s)).toEqual([-1]);
    // Seat 1: AS AH = soft 12 (split not chosen): the timeout stands too.
    s = step(table('AS 9D AH 8C'), { type: 'timeout', seat: 1 });
    expect(s.round!.seats[0].player.hands[0].cards).toEqual(['AS', 'AH']);
    expect(scores(s)).toEqual([-1]);
  });

  it('a missing decision on 11 or less hits: 5 + 6 = 11 takes a card', () => {
    // Seat 1: 5S 6H = 11, + TD = 21 (closed); dealer 9 + 8 = 17: +1.
    const s = step(table('5S 9D 6H 8C TD'), { type: 'timeout', seat: 1 });
    expect(s.round!.seats[0].player.hands[0].cards).toEqual(['5S', '6H', 'TD']);
    expect(scores(s)).toEqual([1]);
  });
});
