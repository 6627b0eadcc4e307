import { CardCode } from '@studio/cards';
import { dealerMustHit, dealerPeeks, insuranceOffered } from './dealer';
import { handTotal, isBlackjack } from './hand';
import { winningsFor } from './money';
import { autoPlayAction, legalActions, PlayerHand } from './player-hands';
import { rulesFor } from './rules';
import { settleHand } from './settle';

/**
 * Rules audit of games.md §0 (money, auto-play) and §1 (scoring, dealer, actions), with every
 * expected figure typed in from the sheet.
 */

const c = (codes: string) => codes.split(' ') as CardCode[];
const hand = (codes: string, over: Partial<PlayerHand> = {}): PlayerHand => ({
  cards: c(codes),
  stake: 100,
  fromSplit: false,
  splitOff: false,
  splitAces: false,
  doubled: false,
  surrendered: false,
  status: 'acting',
  ...over,
});
const infinite = rulesFor('infinite');

describe('rules audit: scoring and the dealer (games.md §1)', () => {
  it('the sheet examples: AS 9H = 20, AS 9D 5C = 15; J/Q/K count 10', () => {
    expect(handTotal(c('AS 9H')).total).toBe(20);
    expect(handTotal(c('AS 9D 5C')).total).toBe(15);
    expect(handTotal(c('JS QH KD')).total).toBe(30);
    expect(handTotal(c('AS AH AD')).total).toBe(13); // one ace 11, the others 1
  });

  it.each([
    ['TS 6H', true], // 16 hits
    ['AS 5H', true], // soft 16 hits
    ['TS 7H', false], // hard 17 stands
    ['AS 6H', false], // soft 17 stands
    ['AS 2H 4D', false], // soft 17 of three cards stands
    ['AS 7H', false],
  ])('dealer %s must hit: %s (stands on all 17s)', (cards, hits) => {
    for (const v of ['infinite', 'lux', 'european-practice'] as const) {
      expect(dealerMustHit(c(cards), rulesFor(v))).toBe(hits);
    }
  });

  it('BJ: ace + ten-value as the first two cards of a hand not created by a split', () => {
    for (const ten of ['T', 'J', 'Q', 'K']) expect(isBlackjack(c(`AS ${ten}H`))).toBe(true);
    expect(isBlackjack(c('AS KH'), true)).toBe(false);
    expect(isBlackjack(c('AS 5H 5D'))).toBe(false);
  });

  it('BJ beats a three-card 21 (3:2); a three-card 21 loses to a dealer BJ', () => {
    expect(settleHand(hand('AS KH'), c('7S 4H TD'), infinite)).toMatchObject({ paid: 250 });
    expect(settleHand(hand('7S 4H TD'), c('AS KH'), infinite)).toMatchObject({ paid: 0 });
    expect(settleHand(hand('7S 4H TD'), c('7D 4C KS'), infinite)).toMatchObject({ refunded: 100 });
  });

  it('peek on an ace or any ten-value card; insurance only under an ace', () => {
    for (const up of ['AS', 'TS', 'JS', 'QS', 'KS'] as CardCode[]) {
      expect(dealerPeeks(up, infinite)).toBe(true);
    }
    expect(dealerPeeks('9S', infinite)).toBe(false);
    expect(insuranceOffered('AS', infinite)).toBe(true);
    expect(insuranceOffered('KS', infinite)).toBe(false);
    expect(dealerPeeks('AS', rulesFor('european-practice'))).toBe(false); // game 3: no peek
  });
});

describe('rules audit: player actions (games.md §1 table)', () => {
  it('double on any two cards only (a soft 19 too), never on three', () => {
    expect(legalActions(hand('AS 8H'), { handCount: 1 }, infinite)).toContain('double');
    expect(legalActions(hand('TS 5H'), { handCount: 1 }, infinite)).toContain('double');
    expect(legalActions(hand('2S 3H 4D'), { handCount: 1 }, infinite)).toEqual(['hit', 'stand']);
  });

  it('split only equal values: 9 and T never; T and Q yes', () => {
    expect(legalActions(hand('9S TH'), { handCount: 1 }, infinite)).not.toContain('split');
    expect(legalActions(hand('TS QH'), { handCount: 1 }, infinite)).toContain('split');
  });

  it('surrender on the first two cards only and not after a split', () => {
    expect(legalActions(hand('TS 6H'), { handCount: 1 }, infinite)).toContain('surrender');
    expect(
      legalActions(hand('TS 6H', { fromSplit: true }), { handCount: 2 }, infinite),
    ).not.toContain('surrender');
  });
});

describe('rules audit: money and auto-play (games.md §0)', () => {
  it('a:b pays stake × a / b; 3:2 on an odd amount rounds down (Default), configurable', () => {
    expect(winningsFor(101, { a: 3, b: 2 }, 'down').amount).toBe(151); // 151.5 -> 151
    expect(winningsFor(101, { a: 3, b: 2 }, 'half-up').amount).toBe(152);
    expect(winningsFor(101, { a: 3, b: 2 }, 'down').rounding).toEqual({
      numerator: 1,
      denominator: 2,
    });
    expect(rulesFor('lux').rounding).toBe('down');
  });

  it('auto-play hits while 11 or less (aces 11 unless busting), then stands', () => {
    expect(autoPlayAction(hand('5S 6H'))).toBe('hit'); // 11
    expect(autoPlayAction(hand('2S 3H'))).toBe('hit');
    expect(autoPlayAction(hand('TS 2H'))).toBe('stand'); // 12
    expect(autoPlayAction(hand('AS AH'))).toBe('stand'); // 12: one ace 11
    expect(autoPlayAction(hand('AS 5H'))).toBe('stand'); // soft 16
    expect(autoPlayAction(hand('AS 5H TD'))).toBe('stand'); // 16: the ace counts 1
    expect(autoPlayAction(hand('4S 3H 2D 2C'))).toBe('hit'); // 11 in four cards
  });
});
