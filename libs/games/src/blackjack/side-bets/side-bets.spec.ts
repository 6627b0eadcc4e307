import { CardCode } from '@studio/cards';
import {
  evaluateBustBonus,
  evaluateLuckyTrio,
  evaluateLuxPairs,
  evaluatePairs,
  evaluatePokerTrio,
  isSideBetOffered,
} from '.';

const c = (s: string) => s.split(' ') as CardCode[];
const two = (s: string) => c(s) as [CardCode, CardCode];
const three = (s: string) => c(s) as [CardCode, CardCode, CardCode];
const payout = (w: { pays: { a: number; b: number } } | null) =>
  w ? `${w.pays.a}:${w.pays.b}` : 'loses';

describe('Pairs (games.md §2): first two cards of the player hand', () => {
  it.each([
    ['8S 8H', 'mixed-pair', '5:1'],
    ['8H 8D', 'coloured-pair', '10:1'],
    ['8S 8C', 'coloured-pair', '10:1'],
    ['8C 8C', 'perfect-pair', '30:1'],
  ])('%s is a %s paying %s', (cards, pattern, pays) => {
    const w = evaluatePairs(...two(cards));
    expect(w?.pattern).toBe(pattern);
    expect(payout(w)).toBe(pays);
  });

  it('T and K are not a pair (same value, different rank)', () => {
    expect(evaluatePairs(...two('TS KS'))).toBeNull();
  });
});

describe('Lux pair bet (games.md §3)', () => {
  it.each([
    ['QS QD', '2C', 'mixed-pair', '5:1'],
    ['QS QC', '2C', 'coloured-pair', '10:1'],
    ['QH QH', '2C', 'perfect-pair', '30:1'],
    ['QH QH', 'QD', 'perfect-pair', '30:1'],
    ['QH QH', 'QH', 'suited-trips', '50:1'],
  ])('%s with dealer up %s is %s paying %s', (cards, up, pattern, pays) => {
    const w = evaluateLuxPairs(...two(cards), up as CardCode);
    expect(w?.pattern).toBe(pattern);
    expect(payout(w)).toBe(pays);
  });

  it('no pair loses even with a matching dealer card', () => {
    expect(evaluateLuxPairs('QH', 'KH', 'QH')).toBeNull();
  });
});

describe('Bust Bonus (games.md §2): pays by the number of cards in the dealer bust hand', () => {
  it.each([
    ['TS 6H KD', '1:1'],
    ['2S 4H TD KC', '2:1'],
    ['2S 2H 2D TC KC', '9:1'],
    ['2S 2H 2D 2C 8C KC', '50:1'],
    ['AS 2H 2D 2C 2S 7C KC', '100:1'],
    ['AS AH AD AC 2S 2H 7C KC', '250:1'],
    ['AS AH AD AC AS AH 2C 2D 2H 5C KS', '250:1'],
  ])('dealer %s pays %s', (cards, pays) => {
    expect(payout(evaluateBustBonus(c(cards)))).toBe(pays);
  });

  it('loses when the dealer does not bust', () => {
    expect(evaluateBustBonus(c('TS 6H 5D'))).toBeNull();
    expect(evaluateBustBonus(c('AS KH'))).toBeNull();
  });
});

describe('Lucky Trio (games.md §2): player first two cards + dealer up card', () => {
  it('a bust three-card total (T 9 K = 29) wins nothing', () => {
    expect(evaluateLuckyTrio(...three('TS 9H KD'))).toBeNull();
  });

  it.each([
    ['5S 5H 9D', 'total-19-or-20', '2:1'],
    ['AS 9H KD', 'total-19-or-20', '2:1'], // ace counts 1: 20
    ['AS 8H AD', 'total-19-or-20', '2:1'], // soft 20
    ['AS 5H 5D', 'unsuited-21', '3:1'],
    ['AH 5H 5H', 'suited-21', '10:1'],
    ['6S 7H 8S', 'unsuited-6-7-8', '30:1'],
    ['7S 7H 7S', 'unsuited-7-7-7', '50:1'],
    ['8D 6D 7D', 'suited-6-7-8', '100:1'],
    ['7C 7C 7C', 'suited-7-7-7', '200:1'],
  ])('%s is %s paying %s', (cards, pattern, pays) => {
    const w = evaluateLuckyTrio(...three(cards));
    expect(w?.pattern).toBe(pattern);
    expect(payout(w)).toBe(pays);
  });

  it('a total of 18 loses', () => {
    expect(evaluateLuckyTrio(...three('9S 9H KD'))).toBeNull();
  });
});

describe('Poker Trio (games.md §2): three-card poker hand', () => {
  it.each([
    ['2S 9S KS', 'flush', '5:1'],
    ['4S 5H 6D', 'straight', '10:1'],
    ['AS 2H 3D', 'straight', '10:1'],
    ['QS KH AD', 'straight', '10:1'],
    ['9S 9H 9D', 'three-of-a-kind', '30:1'],
    ['9S 9S 9D', 'three-of-a-kind', '30:1'],
    ['TH JH QH', 'straight-flush', '40:1'],
    ['5D 5D 5D', 'suited-trips', '100:1'],
  ])('%s is %s paying %s', (cards, pattern, pays) => {
    const w = evaluatePokerTrio(...three(cards));
    expect(w?.pattern).toBe(pattern);
    expect(payout(w)).toBe(pays);
  });

  it('K-A-2 is not a straight; a pair is nothing', () => {
    expect(evaluatePokerTrio(...three('KS AH 2D'))).toBeNull();
    expect(evaluatePokerTrio(...three('KS KH 2D'))).toBeNull();
  });
});

describe('round availability (games.md §2)', () => {
  it('Pairs is offered up to round 40 of the shoe, the others up to 45', () => {
    expect(isSideBetOffered('pairs', 40)).toBe(true);
    expect(isSideBetOffered('pairs', 41)).toBe(false);
    for (const kind of ['bust-bonus', 'lucky-trio', 'poker-trio'] as const) {
      expect(isSideBetOffered(kind, 45)).toBe(true);
      expect(isSideBetOffered(kind, 46)).toBe(false);
    }
    expect(isSideBetOffered('lux-pairs', 200)).toBe(true);
  });
});
