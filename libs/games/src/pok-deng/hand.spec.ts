import { Card, cards } from '@studio/cards';
import { compareHands, evaluateHand, formatScore, HandEvaluation } from './hand';

function hand(codes: string): HandEvaluation {
  const [a, b] = cards(codes) as [Card, Card];
  return evaluateHand(a, b);
}
const score = (codes: string): string => formatScore(hand(codes).score);

describe('Pok Deng points (games.md section 5)', () => {
  it.each([
    ['8C 7D', 5], // "8 + 7 = 15 -> 5"
    ['4H 8C', 2],
    ['6C 7S', 3],
    ['2C 3D', 5],
    ['9C 2D', 1],
    ['AS 8D', 9],
    ['TS 9D', 9],
    ['KS QD', 0],
    ['AS 2H', 3],
  ])('%s scores %d points', (codes, points) => {
    expect(hand(codes).points).toBe(points);
  });
});

describe('the five special combinations', () => {
  it.each([
    // suited A-K: an ace and a king of the same suit
    ['AS KS', 'suited-ace-king', '7.5'],
    ['KH AH', 'suited-ace-king', '7.5'],
    // special pair: aces, fives, sixes or tens, any suits
    ['AS AH', 'special-pair', '7.4'],
    ['5C 5C', 'special-pair', '7.4'],
    ['6D 6S', 'special-pair', '7.4'],
    ['TC TH', 'special-pair', '7.4'],
    // T-T suited is already 7.4, not a flush no point
    ['TD TD', 'special-pair', '7.4'],
    // picture pair: two face cards in any mix
    ['JC KD', 'picture-pair', '7.3'],
    ['QC JC', 'picture-pair', '7.3'],
    ['KS KS', 'picture-pair', '7.3'],
    // single picture no point: a ten with a face card
    ['QC TC', 'single-picture-no-point', '7.2'],
    ['TH JS', 'single-picture-no-point', '7.2'],
    // flush no point: two non-face cards of one suit with 0 points
    ['AH 9H', 'flush-no-point', '7.1'],
    ['2S 8S', 'flush-no-point', '7.1'],
    ['3D 7D', 'flush-no-point', '7.1'],
    ['4C 6C', 'flush-no-point', '7.1'],
  ])('%s is %s (%s)', (codes, combination, shown) => {
    const e = hand(codes);
    expect(e.combination).toBe(combination);
    expect(formatScore(e.score)).toBe(shown);
    expect(e.specialPattern).toBe(true);
  });

  it.each([
    ['AH KD', 1], // ace-king of different suits: 1 point
    ['4C 6D', 0], // 0 points but not suited
    ['TS AS', 1], // suited, but 1 point: a flush, not a combination
    ['KS 5H', 5],
  ])('%s is no combination (%d points)', (codes, points) => {
    const e = hand(codes);
    expect(e.combination).toBeNull();
    expect(e.score).toBe(points * 10);
  });

  it('ranks 9 > 8 > 7.5 > 7.4 > 7.3 > 7.2 > 7.1 > 7 > 6 > ... > 0', () => {
    const ladder = [
      'AS 8D', // 9
      '8C JC', // 8
      'AS KS', // 7.5
      'AS AH', // 7.4
      'JC KD', // 7.3
      'QC TC', // 7.2
      'AH 9H', // 7.1
      '3S 4D', // 7
      '2S 4D', // 6
      '2S 3D', // 5
      'AS 3D', // 4
      'AS 2D', // 3
      '9S 3D', // 2
      '9S 2D', // 1
      '3S 7D', // 0
    ];
    expect(ladder.map(score)).toEqual([
      '9',
      '8',
      '7.5',
      '7.4',
      '7.3',
      '7.2',
      '7.1',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    for (let i = 0; i + 1 < ladder.length; i += 1) {
      expect(compareHands(hand(ladder[i]), hand(ladder[i + 1]))).toBe(1);
      expect(compareHands(hand(ladder[i + 1]), hand(ladder[i]))).toBe(-1);
    }
  });

  it('lets 8 and 9 beat every combination', () => {
    for (const combination of ['AS KS', 'AS AH', 'JC KD', 'QC TC', 'AH 9H']) {
      expect(compareHands(hand('8C JC'), hand(combination))).toBe(1);
      expect(compareHands(hand('9D TH'), hand(combination))).toBe(1);
    }
  });

  it('keeps 8 or 9 by points: it is never a combination (8C JC is 8)', () => {
    for (const codes of ['8C JC', '4S 4H', '9S 9H', 'AC 8C', '9H KH']) {
      const e = hand(codes);
      expect(e.combination).toBeNull();
      expect(e.points).toBeGreaterThanOrEqual(8);
      expect(e.score).toBe(e.points * 10);
    }
  });

  it('ties equal combinations and equal points', () => {
    expect(compareHands(hand('AS AH'), hand('TC TH'))).toBe(0); // 7.4 v 7.4
    expect(compareHands(hand('5C 5C'), hand('6D 6S'))).toBe(0);
    expect(compareHands(hand('JC KD'), hand('QS QH'))).toBe(0); // 7.3 v 7.3
    expect(compareHands(hand('QC TC'), hand('TH KS'))).toBe(0); // 7.2 v 7.2
    expect(compareHands(hand('AH 9H'), hand('4C 6C'))).toBe(0); // 7.1 v 7.1
    expect(compareHands(hand('AS KS'), hand('KD AD'))).toBe(0); // 7.5 v 7.5
    expect(compareHands(hand('6C 5C'), hand('JD AC'))).toBe(0); // 1 v 1
  });

  it('marks flushes and pairs as special patterns, and nothing else', () => {
    expect(hand('6C 5C')).toMatchObject({ flush: true, pair: false, specialPattern: true });
    expect(hand('4S 4H')).toMatchObject({ flush: false, pair: true, specialPattern: true });
    expect(hand('9S 9S')).toMatchObject({ flush: true, pair: true, specialPattern: true });
    expect(hand('6C 7S')).toMatchObject({ flush: false, pair: false, specialPattern: false });
    expect(hand('AH KD').specialPattern).toBe(false);
  });
});
