import type { CardCode } from '@studio/cards';
import {
  applyAction,
  dealToPlayer,
  handAwaitingCard,
  legalActions,
  newPlayerHands,
  PlayerHands,
  rulesFor,
} from '@studio/games/blackjack';
import fc from 'fast-check';
import type { ConsoleCard } from './console-cards';
import { blackjackTotal, consoleHands, pokDengTotal, seatHands } from './console-hands';

const up = (slot: string, card: string): ConsoleCard => ({ slot, hidden: false, card });
const down = (slot: string, card: string | null = null): ConsoleCard => ({
  slot,
  hidden: true,
  card,
});
const codes = (cards: readonly ConsoleCard[]) => cards.map((c) => c.card);
const hand = (...cards: string[]) => cards.map((c, i) => up(`x/${i}`, c));

describe('the hands a console shows', () => {
  it('calls blackjack totals as the dealer does: soft, bust, blackjack, showing', () => {
    expect(blackjackTotal(hand('AS', '6H'), false)).toEqual({ total: 'soft 17', kind: 'soft' });
    expect(blackjackTotal(hand('AS', '6H', 'TD'), false)).toEqual({ total: '17', kind: 'hard' });
    expect(blackjackTotal(hand('AS', 'KH'), false)).toEqual({
      total: 'blackjack',
      kind: 'blackjack',
    });
    // A split hand holding an ace and a ten-value card is an ordinary 21.
    expect(blackjackTotal(hand('AS', 'KH'), true)).toEqual({ total: '21', kind: 'hard' });
    expect(blackjackTotal(hand('TS', '6H', '9C'), false)).toEqual({
      total: 'bust 25',
      kind: 'bust',
    });
    // The dealer's hole card is a back on the dealer's screen: only the up card counts.
    expect(blackjackTotal([up('dealer-up', 'TS'), down('dealer-hole')], false)).toEqual({
      total: 'showing 10',
      kind: 'showing',
    });
    expect(blackjackTotal([up('dealer-up', 'AS'), down('dealer-hole')], false).total).toBe(
      'showing soft 11',
    );
    expect(blackjackTotal([down('dealer-hole')], false)).toEqual({ total: null, kind: null });
  });

  it('says Pok Deng hands in points, pok and deng (the worked examples of docs/rules)', () => {
    const t = (a: string, b: string) => pokDengTotal(hand(a, b)).total;
    expect(t('4H', '8C')).toBe('2 points');
    expect(t('JD', 'AC')).toBe('1 point');
    expect(t('QC', 'TC')).toBe('7.2 single picture no point · 2 deng');
    expect(t('QC', 'JD')).toBe('7.3 two pictures · 2 deng');
    expect(t('5C', '5H')).toBe('7.4 special pair · 2 deng');
    expect(t('AS', 'KS')).toBe('7.5 suited A-K · 2 deng');
    expect(t('4S', '6S')).toBe('7.1 flush no point · 2 deng');
    // 8 or 9 keeps its score: a natural, "pok".
    expect(t('8C', 'JC')).toBe('pok 8 · 2 deng');
    expect(t('9D', 'KH')).toBe('pok 9');
    expect(t('2C', '3C')).toBe('5 points · 2 deng');
    // A hand still face down on the dealer's screen has no total (nothing to give away).
    expect(pokDengTotal([down('player-1/1'), down('player-1/2')])).toEqual({
      total: null,
      kind: null,
    });
  });

  it('groups a Pok Deng round by hand in dealing order, face-down hands without totals', () => {
    const cards = [
      down('burn'),
      down('player-1/1'),
      up('player-2/1', '9D'),
      down('banker/1'),
      down('player-1/2'),
      up('player-2/2', 'KH'),
      down('banker/2'),
    ];
    const hands = consoleHands('pok-deng', cards);
    expect(hands.map((h) => [h.id, h.name, h.cards.length, h.total, h.faceDown])).toEqual([
      ['burn', 'Burn', 1, null, true],
      ['player-1', 'Player 1', 2, null, true],
      ['player-2', 'Player 2', 2, 'pok 9', false],
      ['banker', 'Banker', 2, null, true],
    ]);
    // A supervisor's view carries the face-down values: the total is theirs to see.
    const privileged = consoleHands('pok-deng', [down('banker/1', '2C'), down('banker/2', '3D')]);
    expect(privileged[0]).toMatchObject({ total: '5 points', faceDown: true });
  });

  it('groups an Infinite Blackjack round: dealer, the one player hand, the common draws', () => {
    const hands = consoleHands('infinite-blackjack', [
      up('player/1', 'AS'),
      up('dealer-up', 'TD'),
      up('player/2', '5H'),
      down('dealer-hole'),
      up('common/1', '2C'),
      up('common/2', '9S'),
    ]);
    expect(hands.map((h) => [h.name, codes(h.cards), h.total])).toEqual([
      ['Dealer', ['TD', null], 'showing 10'],
      ['Player hand', ['AS', '5H'], 'soft 16'],
      ['Common draws', ['2C', '9S'], null],
    ]);
  });

  it('groups a Lux round by seat and puts the dealer first; a split names each hand', () => {
    // Seat 1 split a pair of eights: the second eight moved to hand 2, then each got a card.
    const hands = consoleHands('blackjack-lux', [
      up('seat-1/1/1', '8S'),
      up('seat-3/1/1', 'AH'),
      up('dealer-up', '6D'),
      up('seat-1/1/2', '8H'),
      up('seat-3/1/2', 'KC'),
      down('dealer-hole'),
      up('seat-1/1/3', '3C'),
      up('seat-1/2/4', 'TD'),
    ]);
    expect(hands.map((h) => [h.id, h.name, codes(h.cards), h.total])).toEqual([
      ['dealer', 'Dealer', ['6D', null], 'showing 6'],
      ['seat-1/1', 'Seat 1, hand 1', ['8S', '3C'], '11'],
      ['seat-1/2', 'Seat 1, hand 2', ['8H', 'TD'], '18'],
      ['seat-3/1', 'Seat 3', ['AH', 'KC'], 'blackjack'],
    ]);
  });

  it('knows of a split before its new hand has a card, from the engine’s hand sizes', () => {
    const seat = [up('seat-2/1/1', '9S'), up('seat-2/1/2', '9H'), up('seat-2/1/3', 'AC')];
    const unsplit = seatHands(seat);
    expect(unsplit.map(codes)).toEqual([['9S', '9H', 'AC']]);
    const split = seatHands(seat, [2, 1]);
    expect(split.map(codes)).toEqual([['9S', 'AC'], ['9H']]);
    // Sizes the cards cannot explain (a stale view) are ignored rather than trusted.
    expect(
      seatHands([up('seat-2/1/1', '9S'), up('seat-2/1/2', '5H')], [1, 1, 1]).map(codes),
    ).toEqual([['9S', '5H']]);
  });

  it('finds every seat’s hands as the blackjack engine plays them, splits included', () => {
    const rules = rulesFor('lux');
    // Few ranks, so pairs (and splits, re-splits) come up often.
    const card = fc.constantFrom<CardCode>('8S', '8H', '8D', 'AS', 'AH', 'TC', 'KD', '5S', '3H');
    fc.assert(
      fc.property(
        fc.array(card, { minLength: 2, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (shoe, choices) => {
          let player: PlayerHands = newPlayerHands(100);
          const dealt: ConsoleCard[] = [];
          let c = 0;
          let d = 0;
          while (c < shoe.length) {
            const target = handAwaitingCard(player);
            if (target >= 0) {
              dealt.push(up(`seat-1/${target + 1}/${dealt.length + 1}`, shoe[c]));
              player = dealToPlayer(player, shoe[c], rules);
              c += 1;
              continue;
            }
            const current = player.hands.find((h) => h.status === 'acting');
            if (!current || d >= choices.length) break;
            const legal = legalActions(current, { handCount: player.hands.length }, rules);
            const applied = applyAction(player, legal[choices[d] % legal.length], rules);
            d += 1;
            if (!applied.ok) break;
            player = applied.player;
          }
          const engine = player.hands.map((h) => [...h.cards]).filter((h) => h.length > 0);
          // With the engine's hand sizes (a round in progress): exactly the engine's hands.
          const sizes = player.hands.map((h) => h.cards.length);
          expect(seatHands(dealt, sizes).map(codes)).toEqual(engine);
          // From the slots alone (a round that ended, its engine gone): one split is never
          // ambiguous. After a re-split the slots cannot say which hand took which later card;
          // the hands are still the engine's count, of the same cards.
          const finished = player.hands.every((h) => h.status === 'closed');
          const inferred = seatHands(dealt).map(codes);
          if (finished && engine.length <= 2) expect(inferred).toEqual(engine);
          else if (finished) {
            expect(inferred).toHaveLength(engine.length);
            expect(inferred.flat().sort()).toEqual(engine.flat().sort());
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
