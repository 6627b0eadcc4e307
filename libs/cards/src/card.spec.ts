import fc from 'fast-check';
import {
  card,
  cardCode,
  cardFromIndex,
  cardIndex,
  cards,
  decks,
  isRed,
  isTenValue,
  parseCardCode,
} from './card';
import { ShoeComposition } from './composition';

describe('card codes', () => {
  it.each([
    ['AS', 'AS'],
    ['as', 'AS'],
    ['10H', 'TH'],
    ['Td', 'TD'],
    [' kc ', 'KC'],
  ])('parses %p as %s', (text, code) => {
    expect(cardCode(parseCardCode(text)!)).toBe(code);
  });

  it.each(['', 'A', '1S', '11H', 'ZS', 'AX', 'ASX', '10'])('rejects %p', (text) => {
    expect(parseCardCode(text)).toBeUndefined();
  });

  it('maps every index to a distinct card and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 51 }), (i) => cardIndex(cardFromIndex(i)) === i),
    );
    expect(new Set(decks(1).map(cardCode)).size).toBe(52);
  });

  it('knows colours and ten-value ranks', () => {
    expect(isRed('H')).toBe(true);
    expect(isRed('D')).toBe(true);
    expect(isRed('S')).toBe(false);
    expect(cards('TS JS QS KS').every((c) => isTenValue(c.rank))).toBe(true);
    expect(isTenValue('9')).toBe(false);
  });
});

describe('ShoeComposition', () => {
  it('accepts N copies of a card in an N-deck shoe and rejects the next one', () => {
    let comp = ShoeComposition.empty(8);
    for (let i = 0; i < 8; i += 1) {
      const r = comp.add(card('AS'));
      if (!r.ok) throw new Error('unexpected rejection');
      comp = r.composition;
    }
    expect(comp.seen(card('AS'))).toBe(8);
    expect(comp.add(card('AS'))).toEqual({
      ok: false,
      reason: 'exceeds-deck-count',
      card: 'AS',
      seen: 8,
      allowed: 8,
    });
    expect(comp.add(card('AH')).ok).toBe(true);
  });

  it('round-trips through JSON', () => {
    const r = ShoeComposition.empty(6).add(card('7C'));
    if (!r.ok) throw new Error('unexpected');
    const back = ShoeComposition.fromJSON(JSON.parse(JSON.stringify(r.composition)));
    expect(back.seen(card('7C'))).toBe(1);
    expect(back.total).toBe(1);
  });
});
