import {
  infiniteExpectedCard,
  InfiniteInput,
  infinitePlayerSettlements,
  InfiniteState,
  newInfiniteTable,
  stepInfinite,
} from '.';
import { run } from './infinite.testing';

/**
 * Rules audit of games.md §1 and §2 (Infinite Blackjack), played as whole rounds. Every expected
 * amount is worked out from the sheet by hand in the comment next to it.
 */

type Side = Partial<Record<'pairs' | 'bust-bonus' | 'lucky-trio' | 'poker-trio', number>>;
const bet = (playerId: string, main: number, side: Side = {}): InfiniteInput => ({
  type: 'bet',
  playerId,
  main,
  side,
});
const cards = (codes: string): InfiniteInput[] =>
  codes.split(' ').map((card) => ({ type: 'card', card }));
const d = (playerId: string, action: string) =>
  ({ type: 'decision', playerId, action }) as InfiniteInput;
const close: InfiniteInput = { type: 'close-window' };

function round(bets: InfiniteInput[], roundOfShoe = 1): InfiniteState {
  return run(newInfiniteTable(), [
    { type: 'open-betting', roundId: 'r', roundOfShoe },
    ...bets,
    { type: 'close-betting' },
  ]).state;
}

/** playerId -> bet -> amount given back (refunded + paid) out of the stake. */
function returned(state: InfiniteState): Record<string, Record<string, [number, number]>> {
  const out: Record<string, Record<string, [number, number]>> = {};
  for (const rec of infinitePlayerSettlements(state)) {
    out[rec.playerId] = Object.fromEntries(
      rec.bets.map((b) => [b.bet, [b.staked, b.refunded + b.paid]]),
    );
  }
  return out;
}

describe('rules audit: Infinite Blackjack rounds (games.md §1, §2)', () => {
  it('the dealer stands on soft 17: player 18 beats dealer A+6', () => {
    // Deal order player, up, player, hole: player TS 8H = 18, dealer 6D up + AC hole = soft 17.
    let s = run(round([bet('P', 100)]), cards('TS 6D 8H AC')).state;
    s = run(s, [d('P', 'stand'), close]).state;
    expect(s.phase).toBe('settled');
    expect(s.dealer.draws).toEqual([]); // no card drawn on soft 17
    expect(returned(s).P.main).toEqual([100, 200]); // 1:1
  });

  it('the dealer hits 16 and stands on hard 17', () => {
    let s = run(round([bet('P', 100)]), cards('TS 9D 8H 7C')).state; // 18 v 9+7 = 16
    s = run(s, [d('P', 'stand'), close]).state;
    expect(infiniteExpectedCard(s)).toMatchObject({ slot: 'dealer-draw' });
    s = run(s, cards('AS')).state; // 17: stands
    expect(s.phase).toBe('settled');
    expect(returned(s).P.main).toEqual([100, 200]);
  });

  it('BJ pays 3:2, an odd stake rounds down: 25 returns 25 + 37 (37.5 down)', () => {
    const s = run(round([bet('P', 25), bet('Q', 100)]), cards('AS 9D KH 7C')).state;
    // BJ closes the hand; the dealer reveals 9+7 = 16 but draws for no live hand and no Bust Bonus.
    expect(s.phase).toBe('settled');
    expect(returned(s).P.main).toEqual([25, 62]);
    expect(returned(s).Q.main).toEqual([100, 250]);
  });

  it('insurance: half the main stake (25 -> 12, rounded down); pays 2:1 on a dealer BJ', () => {
    let s = run(round([bet('P', 25), bet('Q', 100)]), cards('9S AD 9H KC')).state;
    expect(s.phase).toBe('insurance');
    s = run(s, [d('P', 'insurance'), d('Q', 'insurance'), close]).state;
    // Dealer BJ: the round ends at once; main stakes lose, insurance 12 -> 36, 50 -> 150.
    expect(s.phase).toBe('settled');
    expect(s.commonDraws).toEqual([]);
    expect(returned(s).P).toEqual({ main: [25, 0], insurance: [12, 36] });
    expect(returned(s).Q).toEqual({ main: [100, 0], insurance: [50, 150] });
  });

  it('a ten up card is peeked: no BJ, play goes on; a split hand A+T is 21 paid 1:1', () => {
    let s = run(round([bet('P', 100)]), cards('AS TD AH 8C')).state; // dealer T+8 = 18
    expect(s.phase).toBe('deciding');
    s = run(s, [d('P', 'split'), close]).state;
    s = run(s, cards('KD 9S')).state; // A+K = 21 (not BJ), A+9 = 20; split aces closed
    expect(s.phase).toBe('settled');
    // Two hands of 100: 21 wins 1:1 (200), 20 wins 1:1 (200) against 18.
    expect(returned(s).P.main).toEqual([200, 400]);
  });

  it('split T and K (same value); no re-split at Infinite (2 hands), no surrender after a split', () => {
    let s = run(round([bet('P', 100)]), cards('TS 7D KH 9C')).state; // dealer 16
    s = run(s, [d('P', 'split'), close]).state;
    s = run(s, cards('QD')).state; // first hand T+Q: a pair again, but 2 hands is the limit
    expect(s.phase).toBe('deciding');
    expect(s.nodes[s.players.node[0]].hands[0].cards).toEqual(['TS', 'QD']);
    expect(stepInfinite(s, d('P', 'split'))).toHaveProperty('rejected.code', 'illegal-action');
    // Surrender only on the first two cards, not after a split.
    expect(stepInfinite(s, d('P', 'surrender'))).toHaveProperty('rejected.code', 'illegal-action');
  });

  it('surrender returns half the stake (odd 25 -> 12)', () => {
    let s = run(round([bet('P', 25)]), cards('TS 9D 6H 8C')).state; // 16 v 17
    s = run(s, [d('P', 'surrender'), close]).state;
    expect(s.phase).toBe('settled');
    expect(returned(s).P.main).toEqual([25, 12]);
  });

  it('double: any two cards, stake doubled, exactly one card', () => {
    let s = run(round([bet('P', 100)]), cards('AS 6D 7H TC')).state; // soft 18 v 16
    s = run(s, [d('P', 'double'), close]).state;
    s = run(s, cards('2D')).state; // soft 20, closed
    expect(infiniteExpectedCard(s)).toMatchObject({ slot: 'dealer-draw' });
    s = run(s, cards('5S')).state; // dealer 21
    expect(returned(s).P.main).toEqual([200, 0]);
  });

  it('a bust hand loses even when the dealer busts later; Bust Bonus 3 cards pays 1:1', () => {
    let s = run(round([bet('P', 100, { 'bust-bonus': 10 })]), cards('TS 6D 5H TC')).state;
    s = run(s, [d('P', 'hit'), close]).state;
    s = run(s, cards('KD')).state; // player 25: bust
    s = run(s, cards('9S')).state; // dealer 6 T 9 = 25: bust with 3 cards
    expect(s.phase).toBe('settled');
    expect(returned(s).P).toEqual({ main: [100, 0], 'bust-bonus': [10, 20] });
  });

  it('Bust Bonus loses on a dealer BJ; Pairs still pays from the player cards', () => {
    const s = run(
      round([bet('P', 100, { 'bust-bonus': 10, pairs: 10 })]),
      cards('8S KD 8H AC'),
    ).state;
    expect(s.phase).toBe('settled');
    // mixed pair 8S 8H: 5:1 -> 60
    expect(returned(s).P).toEqual({ main: [100, 0], 'bust-bonus': [10, 0], pairs: [10, 60] });
  });

  it('player BJ against a dealer BJ pushes', () => {
    let s = run(round([bet('P', 100)]), cards('AS AD KH KC')).state;
    s = run(s, [d('P', 'no-insurance'), close]).state;
    expect(returned(s).P.main).toEqual([100, 100]);
  });

  it('side bets past their round are rejected: Pairs after 40, the others after 45', () => {
    const open = (r: number) =>
      run(newInfiniteTable(), [{ type: 'open-betting', roundId: 'r', roundOfShoe: r }]).state;
    const code = (s: InfiniteState, side: Side) => {
      const r = stepInfinite(s, bet('P', 100, side));
      return 'rejected' in r ? r.rejected.code : 'accepted';
    };
    expect(code(open(40), { pairs: 5 })).toBe('accepted');
    expect(code(open(41), { pairs: 5 })).toBe('side-bet-not-offered');
    expect(code(open(45), { 'poker-trio': 5 })).toBe('accepted');
    expect(code(open(46), { 'lucky-trio': 5 })).toBe('side-bet-not-offered');
    expect(code(open(46), { 'bust-bonus': 5 })).toBe('side-bet-not-offered');
  });

  it('bets are rejected once the betting window has closed', () => {
    const s = round([bet('P', 100)]);
    expect(stepInfinite(s, bet('Q', 100))).toHaveProperty('rejected.code', 'betting-closed');
  });

  it('a void refunds every bet, doubled stake, insurance and side bets included', () => {
    let s = run(round([bet('P', 25, { 'bust-bonus': 10, pairs: 5 })]), cards('5S AD 6H 9C')).state;
    s = run(s, [d('P', 'insurance'), close, d('P', 'double'), close]).state;
    s = run(s, [{ type: 'void', reason: 'shoe jam' }]).state;
    expect(returned(s).P).toEqual({
      main: [50, 50],
      insurance: [12, 12],
      pairs: [5, 5],
      'bust-bonus': [10, 10],
    });
  });
});

describe('rules audit: exact boundaries of games.md §0-§2 (Infinite Blackjack)', () => {
  it('21 with five cards is an ordinary 21: it wins 1:1 against 20, never 3:2', () => {
    // Player 2S 3H = 5; dealer TD up, KC hole = 20 (peeked: no BJ).
    let s = run(round([bet('P', 100)]), cards('2S TD 3H KC')).state;
    s = run(s, [d('P', 'hit'), close, ...cards('AS')]).state; // 2 3 A = soft 16
    s = run(s, [d('P', 'hit'), close, ...cards('4C')]).state; // soft 20
    s = run(s, [d('P', 'hit'), close, ...cards('AD')]).state; // 2 3 A 4 A = 11 + 10 = soft 21
    expect(s.phase).toBe('settled'); // the dealer stands on 20
    expect(returned(s).P.main).toEqual([100, 200]);
  });

  it('a three-card 21 against a dealer three-card 21 pushes', () => {
    // Player 7S 7H = 14; dealer 6D up + 5C hole = 11.
    let s = run(round([bet('P', 100)]), cards('7S 6D 7H 5C')).state;
    s = run(s, [d('P', 'hit'), close, ...cards('7D')]).state; // 21: closed
    s = run(s, cards('TS')).state; // dealer 6 5 T = 21
    expect(s.phase).toBe('settled');
    expect(returned(s).P.main).toEqual([100, 100]);
  });

  it('a dealer soft 17 reached with three cards (A 2 4) stands; player 17 pushes', () => {
    let s = run(round([bet('P', 100)]), cards('TS AD 7H 2C')).state; // ace up: insurance
    s = run(s, [close]).state; // no answer: no insurance; peek: A 2 is no BJ
    s = run(s, [d('P', 'stand'), close, ...cards('4S')]).state; // A 2 4 = soft 17: stands
    expect(s.phase).toBe('settled');
    expect(s.dealer.draws).toEqual(['4S']);
    expect(returned(s).P).toEqual({ main: [100, 100] }); // no insurance was taken
  });

  it('Bust Bonus "8 or more cards": a nine-card bust pays 250:1 through a whole round', () => {
    let s = run(round([bet('P', 100, { 'bust-bonus': 10 })]), cards('TS 2D 9H 2C')).state;
    s = run(s, [d('P', 'stand'), close]).state; // 19 v 4
    // 2 2 2 2 2 2 = 12, A = 13, A = 14 (each ace 1), T = 24: bust with 9 cards.
    s = run(s, cards('2H 2S 2D 2C AS AH TD')).state;
    expect(s.phase).toBe('settled');
    expect(returned(s).P).toEqual({ main: [100, 200], 'bust-bonus': [10, 2510] });
  });

  it('a bet at exactly the minimum or the maximum is accepted; one unit outside is not', () => {
    const open = run(
      newInfiniteTable({ mainBet: { min: 100, max: 1_000 }, sideBet: { min: 50, max: 500 } }),
      [{ type: 'open-betting', roundId: 'r', roundOfShoe: 1 }],
    ).state;
    const code = (main: number, side: Side = {}) => {
      const r = stepInfinite(open, bet('P', main, side));
      return 'rejected' in r ? r.rejected.code : 'accepted';
    };
    expect([code(100), code(1_000), code(99), code(1_001)]).toEqual([
      'accepted',
      'accepted',
      'invalid-amount',
      'invalid-amount',
    ]);
    expect([code(100, { pairs: 50 }), code(100, { 'lucky-trio': 500 })]).toEqual([
      'accepted',
      'accepted',
    ]);
    expect([code(100, { pairs: 49 }), code(100, { 'poker-trio': 501 })]).toEqual([
      'invalid-amount',
      'invalid-amount',
    ]);
  });
});
