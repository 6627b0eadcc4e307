import { CardCode } from '@studio/cards';
import {
  evaluateBustBonus,
  evaluateLuckyTrio,
  evaluateLuxPairs,
  evaluatePairs,
  evaluatePokerTrio,
  isSideBetOffered,
} from './side-bets';

/**
 * Rules audit: every pay-table line of games.md §2 (Infinite side bets) and §3 (Lux pair bet),
 * with the expected ratio typed in from the sheet, never read from the code's tables.
 */

const c = (codes: string) => codes.split(' ') as CardCode[];
const ratio = (w: { pays: { a: number; b: number } } | null) =>
  w ? `${w.pays.a}:${w.pays.b}` : 'lose';

describe('rules audit: Pairs (games.md §2, first two cards of the player hand)', () => {
  it.each([
    ['7H 7S', '5:1'], // mixed pair: same rank, red + black
    ['7D 7C', '5:1'],
    ['7H 7D', '10:1'], // coloured pair: both red, different suits
    ['QS QC', '10:1'], // both black, different suits
    ['KD KD', '30:1'], // perfect pair: same rank and suit
    ['TH KH', 'lose'], // same value, different rank: not a pair
    ['7H 8H', 'lose'],
  ])('%s pays %s', (cards, pays) => {
    const [a, b] = c(cards);
    expect(ratio(evaluatePairs(a, b))).toBe(pays);
  });
});

describe('rules audit: Lux pair bet (games.md §3, top pattern uses the dealer up card)', () => {
  it.each([
    ['8S 8H', '2C', '5:1'],
    ['8H 8D', '2C', '10:1'],
    ['8S 8S', '2C', '30:1'],
    ['8S 8S', '8S', '50:1'], // suited trips: both player cards and the up card, same rank + suit
    ['8S 8S', '8C', '30:1'], // the up card of another suit: still only a perfect pair
    ['8S 8H', '8S', '5:1'], // a mixed pair never becomes suited trips
    ['8S 9S', '8S', 'lose'],
  ])('%s with up card %s pays %s', (cards, up, pays) => {
    const [a, b] = c(cards);
    expect(ratio(evaluateLuxPairs(a, b, up as CardCode))).toBe(pays);
  });
});

describe('rules audit: Bust Bonus (games.md §2, by cards in the dealer bust hand)', () => {
  it.each([
    ['TS 6H KD', '1:1'], // 3 cards
    ['2S 4H TD KC', '2:1'], // 4 cards: 2 4 = 6, +10 = 16, +10 = 26
    ['2S 3H 4D 5C TS', '9:1'], // 5 cards: 14, +10 = 24
    ['2S 3H 4D 5C 2H TS', '50:1'], // 6 cards: 16 then 26
    ['2S 2H 2D 2C 3S 3H TD', '100:1'], // 7 cards: 14 then 24
    ['2S 2H 2D 2C 2S 2H 2D TC', '250:1'], // 8 cards: 14 then 24
    ['2S 2H 2D 2C 2S 2H AS AH TD', '250:1'], // 9 cards (14 hard, then 24): "8 or more"
    ['TS 7H', 'lose'], // the dealer stands on 17
    ['AS KH', 'lose'], // a dealer BJ is not a bust (Default: the bet loses)
    ['TS 6H 5D', 'lose'], // 21
  ])('dealer %s: %s', (cards, pays) => {
    expect(ratio(evaluateBustBonus(c(cards)))).toBe(pays);
  });
});

describe('rules audit: Lucky Trio (games.md §2, first two player cards + dealer up card)', () => {
  it.each([
    ['TS 9H', 'KD', 'lose'], // 29: bust total, nothing
    ['TS 8H', 'AD', '2:1'], // 10 + 8 + 1 (the ace 11 would make 29) = 19
    ['TS 9H', 'AD', '2:1'], // 20
    ['TS 9H', '2C', '3:1'], // unsuited 21
    ['AS AH', '9D', '3:1'], // 11 + 1 + 9 = 21, unsuited
    ['TS 9S', '2S', '10:1'], // suited 21
    ['6S 7H', '8D', '30:1'], // unsuited 6-7-8 (outranks the 21 it also makes)
    ['8D 6S', '7H', '30:1'], // any order
    ['7S 7H', '7D', '50:1'], // unsuited 7-7-7
    ['6C 7C', '8C', '100:1'], // suited 6-7-8
    ['7H 7H', '7H', '200:1'], // suited 7-7-7
    ['TS 8H', '9D', 'lose'], // 27: nothing
    ['9S 9H', 'QD', 'lose'], // 28
    ['5S 6H', '7D', 'lose'], // 18
  ])('%s + up %s pays %s', (cards, up, pays) => {
    const [a, b] = c(cards);
    expect(ratio(evaluateLuckyTrio(a, b, up as CardCode))).toBe(pays);
  });
});

describe('rules audit: Poker Trio (games.md §2, three-card poker hand)', () => {
  it.each([
    ['2H 9H', 'KH', '5:1'], // flush
    ['7S 7S', '9S', '5:1'], // one suit, not a straight: flush
    ['4S 5H', '6D', '10:1'], // straight
    ['AS 2H', '3D', '10:1'], // ace low
    ['QS KH', 'AD', '10:1'], // ace high
    ['KS AH', '2D', 'lose'], // K-A-2 does not count
    ['9C 9D', '9H', '30:1'], // three of a kind, not all one suit
    ['JD QD', 'KD', '40:1'], // straight flush
    ['AC 2C', '3C', '40:1'],
    ['QH KH', 'AH', '40:1'],
    ['5S 5S', '5S', '100:1'], // suited trips
    ['5S 5H', '9D', 'lose'], // a pair is nothing
  ])('%s + up %s pays %s', (cards, up, pays) => {
    const [a, b] = c(cards);
    expect(ratio(evaluatePokerTrio(a, b, up as CardCode))).toBe(pays);
  });
});

describe('rules audit: round availability (games.md §2)', () => {
  it('Pairs up to round 40; Bust Bonus, Lucky Trio, Poker Trio up to round 45', () => {
    expect([40, 41].map((r) => isSideBetOffered('pairs', r))).toEqual([true, false]);
    for (const kind of ['bust-bonus', 'lucky-trio', 'poker-trio'] as const) {
      expect([1, 45, 46].map((r) => isSideBetOffered(kind, r))).toEqual([true, true, false]);
    }
  });
});
