import {
  expandInfiniteSettlement,
  infiniteExpectedCard,
  InfiniteInput,
  infinitePlayerSettlements,
  infinitePlayerView,
  InfiniteState,
  newInfiniteTable,
  stepInfinite,
} from '.';
import { run } from './infinite.testing';

const cards = (codes: string): InfiniteInput[] =>
  codes.split(' ').map((card) => ({ type: 'card', card }));
const decide = (...pairs: [string, string][]): InfiniteInput[] =>
  pairs.map(([playerId, action]) => ({ type: 'decision', playerId, action }) as InfiniteInput);
const close: InfiniteInput = { type: 'close-window' };

function bettingRound(bets: InfiniteInput[], roundOfShoe = 1, das = false) {
  const table = newInfiniteTable();
  const rules = { ...table.config.rules, doubleAfterSplit: das };
  return run(newInfiniteTable({ rules }), [
    { type: 'open-betting', roundId: 'r1', roundOfShoe },
    ...bets,
    { type: 'close-betting' },
  ]).state;
}

const bet = (
  playerId: string,
  main: number,
  side: Partial<Record<'pairs' | 'bust-bonus' | 'lucky-trio' | 'poker-trio', number>> = {},
): InfiniteInput => ({ type: 'bet', playerId, main, side });

/** playerId -> { bet -> [staked, returned] } from the streamed records. */
function results(state: InfiniteState) {
  const out: Record<
    string,
    Record<string, { staked: number; returned: number; result: unknown }>
  > = {};
  for (const rec of infinitePlayerSettlements(state)) {
    out[rec.playerId] = Object.fromEntries(
      rec.bets.map((b) => [
        b.bet,
        { staked: b.staked, returned: b.refunded + b.paid, result: b.result },
      ]),
    );
  }
  return out;
}

describe('Infinite Blackjack: one shared card sequence (games.md §2)', () => {
  it('plays split hands in order, gives each drawn card to every hand still drawing, auto-plays', () => {
    let s = bettingRound(
      [bet('A', 100, { pairs: 100 }), bet('B', 100, { 'lucky-trio': 100 }), bet('C', 25)],
      1,
      true, // this table allows double after split
    );
    // Default deal order: player, dealer up, player, dealer hole.
    expect(infiniteExpectedCard(s)).toEqual({ slot: 'player', position: 1 });
    s = run(s, cards('8S 9D 8H 7C')).state;
    expect(s.phase).toBe('deciding');
    // A splits the 8s, B hits 16, C sends nothing and is auto-played (16 > 11: stand).
    s = run(s, [...decide(['A', 'split'], ['B', 'hit']), close]).state;
    expect(infiniteExpectedCard(s)).toEqual({ slot: 'common-draw', position: 1 });
    s = run(s, cards('3D')).state; // A's first hand 8S 3D; B's 8S 8H 3D = 19
    expect(infinitePlayerView(s, 'A').player?.hands.map((h) => h.cards)).toEqual([
      ['8S', '3D'],
      ['8H'],
    ]);
    expect(infinitePlayerView(s, 'B').player?.hands[0].total).toBe(19);
    // A doubles after the split (this table allows it), B stands.
    s = run(s, [...decide(['A', 'double'], ['B', 'stand']), close]).state;
    // TC goes to A's doubled hand only; then A's second hand needs its second card: no window.
    s = run(s, cards('TC')).state;
    expect(s.phase).toBe('drawing');
    s = run(s, cards('5H')).state; // A's second hand 8H 5H = 13
    expect(s.phase).toBe('deciding');
    expect(infinitePlayerView(s, 'A').player?.legalActions).toEqual(['hit', 'stand', 'double']);
    s = run(s, [close]).state; // auto-play: 13 stands
    expect(infiniteExpectedCard(s)).toEqual({ slot: 'dealer-draw', position: 3 });
    const end = run(s, cards('6S')); // dealer 9 7 6 = 22: bust
    expect(end.state.phase).toBe('settled');
    expect(infiniteExpectedCard(end.state)).toBeNull();
    const r = results(end.state);
    // A: doubled hand 200 wins 1:1 (400) + second hand 100 wins (200); mixed pair 8S 8H 5:1.
    expect(r.A.main).toEqual({ staked: 300, returned: 600, result: ['win', 'win'] });
    expect(r.A.pairs).toEqual({ staked: 100, returned: 600, result: 'mixed-pair' });
    // B: 19 wins 1:1; Lucky Trio 8+8+9 = 25 loses.
    expect(r.B.main).toEqual({ staked: 100, returned: 200, result: ['win'] });
    expect(r.B['lucky-trio']).toEqual({ staked: 100, returned: 0, result: 'lose' });
    // C: auto-stood on 16, dealer busts: 1:1.
    expect(r.C.main).toEqual({ staked: 25, returned: 50, result: ['win'] });
    const totals = end.state.settlement!.totals;
    expect(totals.main).toMatchObject({ staked: 425, paid: 850, houseResult: -425 });
  });

  it('peek: a dealer BJ ends the round at once; insurance pays 2:1; a player BJ pushes', () => {
    let s = bettingRound([bet('A', 100), bet('B', 100), bet('C', 100, { 'bust-bonus': 100 })]);
    s = run(s, cards('AH AS KH KD')).state; // player A K = BJ; dealer up AS, hole KD
    expect(s.phase).toBe('insurance');
    const r1 = run(s, [...decide(['A', 'insurance'], ['B', 'no-insurance']), close]);
    expect(r1.state.phase).toBe('settled');
    expect(infiniteExpectedCard(r1.state)).toBeNull(); // no further cards are dealt
    expect(r1.effects.some((e) => e.type === 'event' && e.name === 'hole-card-revealed')).toBe(
      true,
    );
    const r = results(r1.state);
    expect(r.A.main).toEqual({ staked: 100, returned: 100, result: ['push'] }); // BJ v BJ
    expect(r.A.insurance).toEqual({ staked: 50, returned: 150, result: 'win' }); // half, 2:1
    expect(r.B.insurance).toBeUndefined();
    expect(r.C['bust-bonus']).toEqual({ staked: 100, returned: 0, result: 'lose' });
  });

  it('peek: every non-BJ hand loses its main stake to a dealer BJ; uninsured nothing else', () => {
    let s = bettingRound([bet('A', 100)]);
    s = run(s, cards('9S TS 7H AC')).state; // dealer up T, hole A: no insurance (up is not an ace)
    expect(s.phase).toBe('settled');
    expect(results(s).A.main).toEqual({ staked: 100, returned: 0, result: ['lose'] });
  });

  it('insurance is lost when the dealer has no BJ, and the round goes on', () => {
    let s = bettingRound([bet('A', 100)]);
    s = run(s, [...cards('9S AC 7H 9D'), ...decide(['A', 'insurance']), close]).state;
    expect(s.phase).toBe('deciding');
    s = run(s, [...decide(['A', 'stand']), close]).state; // 16 v A 9 = 20
    expect(results(s).A).toEqual({
      main: { staked: 100, returned: 0, result: ['lose'] },
      insurance: { staked: 50, returned: 0, result: 'lose' },
    });
  });

  it('player BJ wins 3:2; an odd stake rounds down and the half unit is recorded', () => {
    let s = bettingRound([bet('A', 125)]);
    s = run(s, cards('AS TS KD 7C')).state; // peek: T up, 7 hole: no BJ; player BJ needs nothing
    expect(s.phase).toBe('settled');
    expect(s.dealer.draws).toEqual([]); // nothing left to decide: the dealer draws no card
    expect(results(s).A.main).toEqual({ staked: 125, returned: 312, result: ['blackjack'] });
    expect(s.settlement!.totals.main.rounding).toEqual({ numerator: 1, denominator: 2 });
  });

  it('split A+T is not BJ; split aces get one card each and are closed', () => {
    let s = bettingRound([bet('A', 100)]);
    s = run(s, [...cards('AS 9D AD 7C'), ...decide(['A', 'split']), close]).state;
    s = run(s, cards('KH')).state; // AS KH = 21, closed, no window
    expect(s.phase).toBe('drawing');
    s = run(s, cards('5C')).state; // AD 5C = soft 16, closed: split aces get one card
    expect(s.phase).toBe('dealer');
    s = run(s, cards('5S')).state; // dealer 9 7 5 = 21
    expect(results(s).A.main).toEqual({ staked: 200, returned: 100, result: ['push', 'lose'] });
  });

  it('surrender returns half the stake (odd stakes round down); double gets exactly one card', () => {
    let s = bettingRound([bet('S', 25), bet('D', 100)]);
    s = run(s, [
      ...cards('5S 9D 6H 8C'),
      ...decide(['S', 'surrender'], ['D', 'double']),
      close,
    ]).state;
    s = run(s, cards('2C')).state; // D: 5 6 2 = 13, closed after one card
    expect(infinitePlayerView(s, 'D').player?.hands[0]).toMatchObject({
      cards: ['5S', '6H', '2C'],
      stake: 200,
    });
    expect(s.phase).toBe('settled'); // dealer 9 8 = 17 stands
    const r = results(s);
    expect(r.S.main).toEqual({ staked: 25, returned: 12, result: ['surrender'] });
    expect(r.D.main).toEqual({ staked: 200, returned: 0, result: ['lose'] });
  });

  it('auto-play: hits while 11 or less (aces 11 unless busting), then stands', () => {
    let s = bettingRound([bet('A', 100)]);
    s = run(s, [...cards('2S 9D 3H 8C'), close, ...cards('4D'), close, ...cards('AC')]).state;
    // 2 3 4 = 9 -> hit; 9 + A = 20 (ace 11) -> stand by auto-play
    s = run(s, [close]).state;
    expect(infinitePlayerView(s, 'A').player?.hands[0]).toMatchObject({
      cards: ['2S', '3H', '4D', 'AC'],
      total: 20,
    });
    expect(results(s).A.main.result).toEqual(['win']);
  });

  it('the dealer keeps drawing for Bust Bonus even when every hand is decided', () => {
    const base = [...cards('TS 6D TH 8C')];
    // With no Bust Bonus and every player bust, the dealer draws nothing.
    let s = bettingRound([bet('A', 100)]);
    s = run(s, [...base, ...decide(['A', 'hit']), close, ...cards('5S')]).state;
    expect(s.phase).toBe('settled');
    // With a Bust Bonus bet the dealer plays out: 6 8 A A T = 26 with 5 cards pays 9:1.
    s = bettingRound([bet('A', 100, { 'bust-bonus': 100 })]);
    s = run(s, [...base, ...decide(['A', 'hit']), close, ...cards('5S AD AH TD')]).state;
    expect(s.phase).toBe('settled');
    expect(results(s).A['bust-bonus']).toEqual({
      staked: 100,
      returned: 1000,
      result: 'dealer-bust-5-cards',
    });
  });

  it('pays Pairs, Lucky Trio and Poker Trio once for everybody from the common cards', () => {
    let s = bettingRound([bet('A', 100, { pairs: 100, 'lucky-trio': 100, 'poker-trio': 100 })]);
    // 7H 7H + up 7H: perfect pair, suited 7-7-7, suited trips. Player stands on 14 (auto-play).
    s = run(s, [...cards('7H 7H 7H 9C'), close, ...cards('2C')]).state;
    expect(s.phase).toBe('settled');
    const r = results(s).A;
    expect(r.pairs).toEqual({ staked: 100, returned: 3100, result: 'perfect-pair' }); // 30:1
    expect(r['lucky-trio']).toEqual({ staked: 100, returned: 20100, result: 'suited-7-7-7' }); // 200:1
    expect(r['poker-trio']).toEqual({ staked: 100, returned: 10100, result: 'suited-trips' }); // 100:1
  });

  it('offers Pairs up to round 40 and the other side bets up to round 45', () => {
    const open = (round: number) =>
      run(newInfiniteTable(), [{ type: 'open-betting', roundId: 'r', roundOfShoe: round }]).state;
    const tryBet = (round: number, side: Record<string, number>) => {
      const r = stepInfinite(open(round), { type: 'bet', playerId: 'A', main: 100, side });
      return 'rejected' in r ? r.rejected.code : 'accepted';
    };
    expect(tryBet(40, { pairs: 100 })).toBe('accepted');
    expect(tryBet(41, { pairs: 100 })).toBe('side-bet-not-offered');
    for (const kind of ['bust-bonus', 'lucky-trio', 'poker-trio']) {
      expect(tryBet(45, { [kind]: 100 })).toBe('accepted');
      expect(tryBet(46, { [kind]: 100 })).toBe('side-bet-not-offered');
    }
  });

  it('sets the betting (15 s) and decision (10 s) timers and ignores a stale timer', () => {
    const opened = run(newInfiniteTable(), [
      { type: 'open-betting', roundId: 'r', roundOfShoe: 1 },
    ]);
    expect(opened.effects).toContainEqual({
      type: 'set-timer',
      timer: 'betting',
      durationMs: 15_000,
      window: 1,
    });
    let s = run(opened.state, [
      bet('A', 100),
      { type: 'timeout', timer: 'betting', window: 1 },
    ]).state;
    expect(s.phase).toBe('dealing');
    const dealt = run(s, cards('9S 9D 7H 8C'));
    expect(dealt.effects).toContainEqual({
      type: 'set-timer',
      timer: 'decision',
      durationMs: 10_000,
      window: 2,
    });
    s = dealt.state;
    const stale = stepInfinite(s, { type: 'timeout', timer: 'decision', window: 1 });
    expect('rejected' in stale && stale.rejected.code).toBe('wrong-phase');
    s = run(s, [{ type: 'timeout', timer: 'decision', window: 2 }]).state; // auto-play: 16 stands
    expect(s.phase).toBe('settled'); // dealer 9 8 = 17 stands
    expect(infinitePlayerView(s, 'A').player?.hands[0].cards).toEqual(['9S', '7H']);
  });

  it('rejects illegal input with typed codes and never throws', () => {
    let s = bettingRound([bet('A', 100)]);
    const code = (input: InfiniteInput) => {
      const r = stepInfinite(s, input);
      return 'rejected' in r ? r.rejected.code : 'accepted';
    };
    expect(code(bet('Z', 100))).toBe('betting-closed');
    expect(code({ type: 'decision', playerId: 'A', action: 'hit' })).toBe('no-decision-window');
    s = run(s, cards('9S 9D 7H 8C')).state;
    expect(code({ type: 'card', card: '2C' })).toBe('no-card-expected');
    expect(code({ type: 'decision', playerId: 'Z', action: 'hit' })).toBe('unknown-player');
    expect(code({ type: 'decision', playerId: 'A', action: 'split' })).toBe('illegal-action');
    // Names every object inherits are not actions (they once passed as a legal "hit").
    for (const action of ['toString', 'constructor', '__proto__', 'valueOf']) {
      expect(code({ type: 'decision', playerId: 'A', action } as InfiniteInput)).toBe(
        'illegal-action',
      );
    }
    s = run(s, [...decide(['A', 'hit']), close, ...cards('2D')]).state;
    expect(code({ type: 'decision', playerId: 'A', action: 'double' })).toBe('illegal-action');
    expect(code({ type: 'decision', playerId: 'A', action: 'surrender' })).toBe('illegal-action');
    expect(code({ type: 'timeout', timer: 'decision', window: 1 })).toBe('wrong-phase');
    s = run(s, [...decide(['A', 'stand']), close]).state;
    expect(code({ type: 'decision', playerId: 'A', action: 'hit' })).toBe('no-decision-window');
    expect(code({ type: 'void', reason: 'late' })).toBe('round-over');
  });

  it('rejects a card that would exceed the deck count within the round', () => {
    const oneDeck = newInfiniteTable({ rules: { ...newInfiniteTable().config.rules, decks: 1 } });
    const s = run(oneDeck, [
      { type: 'open-betting', roundId: 'r', roundOfShoe: 1 },
      bet('A', 100),
      { type: 'close-betting' },
      ...cards('2S 9D'),
    ]).state;
    const r = stepInfinite(s, { type: 'card', card: '2S' });
    expect('rejected' in r && r.rejected.code).toBe('composition-exceeded');
    expect(infiniteExpectedCard(s)).toEqual({ slot: 'player', position: 2 }); // the slot stays open
  });

  it('void refunds every bet: no winners, no losers', () => {
    let s = bettingRound([bet('A', 100, { pairs: 100 })]);
    s = run(s, [...cards('8S 9D 8H'), { type: 'void', reason: 'scanner fault' }]).state;
    expect(results(s).A).toEqual({
      main: { staked: 100, returned: 100, result: 'void' },
      pairs: { staked: 100, returned: 100, result: 'void' },
    });
  });

  it('void refunds doubled and split stakes too, and works while betting is open', () => {
    let s = bettingRound([bet('A', 100), bet('B', 100)]);
    s = run(s, [...cards('8S 9D 8H 7C'), ...decide(['A', 'split'], ['B', 'double']), close]).state;
    s = run(s, [{ type: 'void', reason: 'shoe jam' }]).state;
    expect(results(s)).toEqual({
      A: { main: { staked: 200, returned: 200, result: 'void' } },
      B: { main: { staked: 200, returned: 200, result: 'void' } },
    });
    const open = run(newInfiniteTable(), [
      { type: 'open-betting', roundId: 'r', roundOfShoe: 1 },
      bet('A', 100, { pairs: 100 }),
      { type: 'void', reason: 'table closed' },
    ]).state;
    expect(results(open).A).toEqual({
      main: { staked: 100, returned: 100, result: 'void' },
      pairs: { staked: 100, returned: 100, result: 'void' },
    });
  });

  it('marks the hole card hidden and keeps it out of the player view until revealed', () => {
    let s = bettingRound([bet('A', 100)]);
    const dealt = run(s, cards('9S 9D 7H 8C'));
    const hole = dealt.effects.find(
      (e) => e.type === 'event' && e.name === 'card-dealt' && e.hidden,
    );
    expect(hole).toMatchObject({ payload: { slot: 'dealer-hole', card: '8C' } });
    s = dealt.state;
    expect(infinitePlayerView(s, 'A').dealer.cards).toEqual(['9D']);
    s = run(s, [...decide(['A', 'stand']), close]).state;
    expect(infinitePlayerView(s, 'A').dealer.cards).toEqual(['9D', '8C']);
  });

  it('expands per-player settlement into typed arrays matching the streamed records', () => {
    let s = bettingRound([bet('A', 100, { pairs: 100 }), bet('B', 300)]);
    s = run(s, [...cards('8S 9D 8H 7C'), ...decide(['A', 'split'], ['B', 'stand']), close]).state;
    s = run(s, [...cards('TD'), close, ...cards('9H'), close, ...cards('TH')]).state;
    const arrays = expandInfiniteSettlement(s);
    const n = arrays.playerCount;
    const main = arrays.bets.indexOf('main');
    const r = results(s);
    expect(arrays.staked[main * n + 0]).toBe(r.A.main.staked);
    expect(arrays.paid[main * n + 1] + arrays.refunded[main * n + 1]).toBe(r.B.main.returned);
  });
});
