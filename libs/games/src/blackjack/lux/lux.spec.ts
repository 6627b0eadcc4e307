import { rulesFor } from '../core';
import { LuxInput, luxExpectedCard, luxPublicView, newLuxTable, stepLux } from '.';
import {
  behind,
  cards,
  close,
  code,
  decide,
  open,
  results,
  run,
  seatBet,
  sit,
  twoSeats,
} from './lux.testing';

describe('Blackjack Lux (games.md §3)', () => {
  it('deals in seat order, calls seats from the lowest, bet behind follows a double by choice', () => {
    let s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100),
      behind(1, 'B', 100),
      behind(1, 'C', 100),
      { type: 'follow-choice', seat: 1, playerId: 'B', followDouble: true },
      { type: 'close-betting' },
    ]).state;
    // One card to each seat in order, the up card, a second card to each seat, the hole card.
    const slots: unknown[] = [];
    for (const c of '5S TH 9D 6H 9C 7C'.split(' ')) {
      slots.push(luxExpectedCard(s));
      s = run(s, cards(c)).state;
    }
    expect(slots).toEqual([
      { slot: 'seat', seat: 1, hand: 0, position: 1 },
      { slot: 'seat', seat: 3, hand: 0, position: 1 },
      { slot: 'dealer-up' },
      { slot: 'seat', seat: 1, hand: 0, position: 2 },
      { slot: 'seat', seat: 3, hand: 0, position: 2 },
      { slot: 'dealer-hole' },
    ]);
    expect(luxPublicView(s).turn).toBe(1);
    expect(code(s, decide(3, 'P3', 'stand'))).toBe('not-your-turn');
    s = run(s, [decide(1, 'P1', 'double'), ...cards('TD')]).state; // 5 6 T = 21
    expect(luxPublicView(s).turn).toBe(3);
    s = run(s, [decide(3, 'P3', 'stand'), ...cards('4S')]).state; // dealer 9 7 4 = 20
    expect(s.phase).toBe('settled');
    expect(results(s)).toEqual({
      'P1 1/seat/main': [200, 400, ['win']],
      'B 1/behind/main': [200, 400, ['win']], // followed the double
      'C 1/behind/main': [100, 200, ['win']], // no answer: keeps the original stake
      'P3 3/seat/main': [100, 0, ['lose']], // 19 v 20
    });
  });

  it('follow split: stake on both hands, or on the first hand only (no answer does not follow)', () => {
    let s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100),
      behind(1, 'B', 100),
      behind(1, 'C', 100),
      { type: 'follow-choice', seat: 1, playerId: 'B', followSplit: true },
      { type: 'close-betting' },
      ...cards('8S TH 9D 8H 9C 7C'),
      decide(1, 'P1', 'split'),
    ]).state;
    expect(luxPublicView(s).seats[0].behind.map((b) => b.stakes)).toEqual([
      [100, 100],
      [100, 0],
    ]);
    s = run(s, [
      ...cards('TD'),
      decide(1, 'P1', 'stand'),
      ...cards('2C'),
      decide(1, 'P1', 'stand'),
    ]).state; // hands 18 and 10
    s = run(s, [decide(3, 'P3', 'stand'), ...cards('TS')]).state; // dealer 9 7 T = 26
    const r = results(s);
    expect(r['B 1/behind/main']).toEqual([200, 400, ['win', 'win']]);
    expect(r['C 1/behind/main']).toEqual([100, 200, ['win']]);
    expect(r['P1 1/seat/main']).toEqual([200, 400, ['win', 'win']]);
  });

  it('no-peek table, original bets only: a dealer BJ takes only what each bettor staked first', () => {
    const table = newLuxTable({
      rules: rulesFor('lux', { peek: false, noPeekDealerBlackjack: 'original-bets-only' }),
    });
    const s = run(table, [
      sit(1, 'P1'),
      open,
      seatBet(1, 'P1', 100),
      behind(1, 'B', 100),
      behind(1, 'C', 100),
      { type: 'follow-choice', seat: 1, playerId: 'B', followDouble: true },
      { type: 'close-betting' },
      ...cards('5S TD 6H AC'), // dealer T up, A hole: no peek, so play goes on
      decide(1, 'P1', 'double'),
      ...cards('9D'),
    ]).state;
    expect(s.phase).toBe('settled'); // the dealer's BJ shows at the reveal
    const r = results(s);
    expect(r['P1 1/seat/main']).toEqual([200, 100, ['lose']]); // the double comes back
    expect(r['B 1/behind/main']).toEqual([200, 100, ['lose']]);
    expect(r['C 1/behind/main']).toEqual([100, 0, ['lose']]); // did not follow: loses its 100
  });

  it('applies a pre-decision when the turn starts if still legal, otherwise asks', () => {
    const s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100),
      { type: 'close-betting' },
      { type: 'pre-decision', seat: 3, playerId: 'P3', action: 'stand' },
      { type: 'pre-decision', seat: 1, playerId: 'P1', action: 'split' }, // 5 6 is no pair
      ...cards('5S TH 9D 6H 9C 7C'),
    ]).state;
    expect(luxPublicView(s).turn).toBe(1); // split was not legal: P1 is asked
    const r = run(s, [decide(1, 'P1', 'stand')]);
    expect(r.effects.some((e) => e.type === 'event' && e.name === 'pre-decision-applied')).toBe(
      true,
    );
    expect(r.state.phase).toBe('dealer'); // P3's stand was applied at the start of the turn
  });

  it('early end on a dealer BJ: insurance (seat and behind, each their own) pays 2:1, BJ pushes', () => {
    let s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100),
      behind(1, 'B', 100),
      { type: 'close-betting' },
      ...cards('9S AH AS 8H KH KD'),
    ]).state;
    expect(s.phase).toBe('insurance');
    s = run(s, [
      { type: 'insurance', seat: 1, playerId: 'P1', take: true },
      { type: 'insurance', seat: 1, playerId: 'B', take: true },
      close,
    ]).state;
    expect(s.phase).toBe('settled');
    expect(s.earlyEnd).toBe('dealer-blackjack');
    expect(luxExpectedCard(s)).toBeNull();
    expect(results(s)).toEqual({
      'P1 1/seat/main': [100, 0, ['lose']],
      'P1 1/seat/insurance': [50, 150, 'win'],
      'B 1/behind/main': [100, 0, ['lose']],
      'B 1/behind/insurance': [50, 150, 'win'],
      'P3 3/seat/main': [100, 100, ['push']], // A K against the dealer's BJ
    });
  });

  it('early end when every seated player has BJ and the dealer has none: BJs paid 3:2', () => {
    const s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 125),
      { type: 'close-betting' },
      ...cards('AS KH TD QS AC 6C'),
    ]).state;
    expect(s.phase).toBe('settled');
    expect(s.earlyEnd).toBe('all-seats-blackjack');
    expect(s.dealer.holeRevealed).toBe(true);
    const r = results(s);
    expect(r['P1 1/seat/main']).toEqual([100, 250, ['blackjack']]);
    expect(r['P3 3/seat/main']).toEqual([125, 312, ['blackjack']]); // 187.5 rounds down
    expect(s.settlement!.records.find((x) => x.seat === 3)!.rounding).toEqual([
      { numerator: 1, denominator: 2 },
    ]);
  });

  it('pair bet: mixed 5:1 ... suited trips 50:1 with the dealer up card, for seat and behind', () => {
    let s = run(newLuxTable(), [
      sit(2, 'P2'),
      open,
      seatBet(2, 'P2', 100, 100),
      behind(2, 'B', 0, 100),
      { type: 'close-betting' },
      ...cards('QH QH QH 5C'), // seat 2: QH, up QH, seat 2: QH, hole 5C
    ]).state;
    s = run(s, [decide(2, 'P2', 'stand'), ...cards('2S')]).state; // dealer Q 5 2 = 17 v 20
    const r = results(s);
    expect(r['P2 2/seat/pairs']).toEqual([100, 5100, 'suited-trips']);
    expect(r['B 2/behind/pairs']).toEqual([100, 5100, 'suited-trips']);
    expect(r['P2 2/seat/main']).toEqual([100, 200, ['win']]);
  });

  it('auto-plays a missing decision, surrender returns half to the seat and the bet behind', () => {
    let s = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      seatBet(3, 'P3', 100),
      behind(3, 'B', 125),
      { type: 'close-betting' },
      ...cards('2S TH 9D 3H 6C 7C'),
    ]).state;
    s = run(s, [{ type: 'timeout', timer: 'decision', window: s.window }, ...cards('4D')]).state;
    expect(s.seats[0].hands[0].cards).toEqual(['2S', '3H', '4D']); // 5 -> auto hit
    s = run(s, [close, ...cards('TC')]).state; // 9 -> auto hit -> 19
    s = run(s, [close]).state; // 19 -> auto stand
    s = run(s, [decide(3, 'P3', 'surrender'), ...cards('5S')]).state; // dealer 9 7 5 = 21
    const r = results(s);
    expect(r['P1 1/seat/main']).toEqual([100, 0, ['lose']]);
    expect(r['P3 3/seat/main']).toEqual([100, 50, ['surrender']]);
    expect(r['B 3/behind/main']).toEqual([125, 62, ['surrender']]); // 62.5 rounds down
  });

  it('keeps the hole card hidden until it is revealed', () => {
    const dealt = run(twoSeats(), [
      seatBet(1, 'P1', 100),
      { type: 'close-betting' },
      ...cards('TS 9D TH 7C'),
    ]);
    expect(dealt.effects.find((e) => e.type === 'event' && e.hidden)).toMatchObject({
      payload: { slot: 'dealer-hole', card: '7C' },
    });
    expect(luxPublicView(dealt.state).dealer.cards).toEqual(['9D']);
    const after = run(dealt.state, [decide(1, 'P1', 'stand')]).state;
    expect(luxPublicView(after).dealer.cards).toEqual(['9D', '7C']);
  });

  it('void refunds every bet of the round, doubles and insurance included', () => {
    let s = run(twoSeats(), [
      seatBet(1, 'P1', 100, 100),
      seatBet(3, 'P3', 100),
      behind(1, 'B', 100),
      { type: 'follow-choice', seat: 1, playerId: 'B', followDouble: true },
      { type: 'close-betting' },
      ...cards('5S TH AD 6H 9C 7C'),
      { type: 'insurance', seat: 3, playerId: 'P3', take: true },
      close,
      decide(1, 'P1', 'double'),
    ]).state;
    s = run(s, [{ type: 'void', reason: 'scanner fault' }]).state;
    expect(s.phase).toBe('voided');
    expect(results(s)).toEqual({
      'P1 1/seat/main': [200, 200, 'void'],
      'P1 1/seat/pairs': [100, 100, 'void'],
      'P3 3/seat/main': [100, 100, 'void'],
      'P3 3/seat/insurance': [50, 50, 'void'],
      'B 1/behind/main': [200, 200, 'void'],
    });
    expect(code(s, { type: 'void', reason: 'again' })).toBe('round-over');
  });

  it('rejects illegal input with typed codes', () => {
    let s = run(twoSeats(), [seatBet(1, 'P1', 100)]).state;
    expect(code(s, seatBet(3, 'P1', 100))).toBe('not-your-turn');
    expect(code(s, seatBet(1, 'P1', 50))).toBe('invalid-amount');
    expect(code(s, behind(5, 'B', 100))).toBe('unknown-seat');
    expect(code(s, { type: 'card', card: 'AS' })).toBe('no-card-expected');
    s = run(s, [{ type: 'close-betting' }]).state;
    expect(code(s, behind(1, 'B', 100))).toBe('betting-closed');
    s = run(s, cards('TS 9D 6H 7C')).state;
    expect(code(s, decide(1, 'P1', 'split'))).toBe('illegal-action');
    expect(code(s, decide(1, 'X', 'hit'))).toBe('not-your-turn');
  });
});

describe('Blackjack Lux limits per currency', () => {
  const config = {
    limitsByCurrency: {
      EUR: {
        seatBet: { min: 100, max: 1_000 },
        betBehind: { min: 100, max: 1_000 },
        pairBet: { min: 100, max: 500 },
      },
      THB: {
        seatBet: { min: 3_000, max: 40_000 },
        betBehind: { min: 3_000, max: 40_000 },
        pairBet: { min: 3_000, max: 20_000 },
      },
    },
  };
  const seated = () => run(newLuxTable(config), [open, sit(1, 'P1'), sit(2, 'P2')]).state;

  it('holds a seat bet and a bet behind to the limits of their own currencies', () => {
    const state = seated();
    const thb = { ...seatBet(1, 'P1', 30_000), currency: 'THB' } as LuxInput;
    expect('rejected' in stepLux(state, thb)).toBe(false);
    const eur = { ...seatBet(1, 'P1', 30_000), currency: 'EUR' } as LuxInput;
    expect(stepLux(state, eur)).toMatchObject({ rejected: { code: 'invalid-amount' } });
    const usd = { ...seatBet(1, 'P1', 500), currency: 'USD' } as LuxInput;
    expect(stepLux(state, usd)).toMatchObject({ rejected: { code: 'wrong-currency' } });
    // A bet behind need not be in its seat's currency: each is held to its own limits.
    const after = run(state, [thb]).state;
    const behindEur = { ...behind(1, 'P3', 500), currency: 'EUR' } as LuxInput;
    expect('rejected' in stepLux(after, behindEur)).toBe(false);
    const behindThb = { ...behind(1, 'P3', 500), currency: 'THB' } as LuxInput;
    expect(stepLux(after, behindThb)).toMatchObject({ rejected: { code: 'invalid-amount' } });
  });
});
