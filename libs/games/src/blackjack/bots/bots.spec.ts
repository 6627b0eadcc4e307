import { CardCode } from '@studio/cards';
import { legalActions, PlayerHand } from '../core/player-hands';
import { BlackjackRules, rulesFor } from '../core/rules';
import { botDecision } from './bots';
import { BotDifficulty, BotView } from './view';

const european = rulesFor('european-practice');
const obo = rulesFor('european-practice', { noPeekDealerBlackjack: 'original-bets-only' });

/** A view of one two-card (or longer) hand against an up card, with the engine's legal actions. */
function view(
  cards: string,
  up: CardCode,
  rules: BlackjackRules = european,
  handCount = 1,
): BotView {
  const hand: PlayerHand = {
    cards: cards.split(' ') as CardCode[],
    stake: 100,
    fromSplit: handCount > 1,
    splitOff: false,
    splitAces: false,
    doubled: false,
    surrendered: false,
    status: 'acting',
  };
  return {
    rules,
    seat: 1,
    dealerUp: up,
    hands: [{ cards: hand.cards, fromSplit: hand.fromSplit, doubled: false }],
    currentHand: 0,
    legalActions: legalActions(hand, { handCount }, rules),
    otherSeats: [],
  };
}

const decide = (d: BotDifficulty, cards: string, up: CardCode, rules?: BlackjackRules) =>
  botDecision(d, view(cards, up, rules));

describe('easy bot (games.md §4: hits below 17, otherwise stands)', () => {
  it.each([
    ['TS 6H', 'hit'],
    ['TS 7H', 'stand'],
    ['AS 6H', 'stand'], // soft 17 is 17
    ['5S 6H', 'hit'], // never doubles
    ['8S 8H', 'hit'], // never splits
  ])('%s against 9: %s', (cards, action) => {
    expect(decide('easy', cards, '9C')).toBe(action);
  });
});

describe('normal bot: the textbook chart', () => {
  it('doubles 11 against a ten and splits 8s against an ace, as the peek chart says', () => {
    expect(decide('normal', '5S 6H', 'TC')).toBe('double');
    expect(decide('normal', '8S 8H', 'AC')).toBe('split');
    expect(decide('normal', 'TS 6H', '6C')).toBe('stand');
    expect(decide('normal', 'AS 7H', '9C')).toBe('hit');
  });
});

describe('hard bot: exact strategy for 6 decks, S17, no peek, DAS', () => {
  it('does not double 11 or split 8s against a ten when a dealer BJ takes all stakes', () => {
    expect(decide('hard', '5S 6H', 'TC')).toBe('hit');
    expect(decide('hard', '8S 8H', 'TC')).toBe('hit');
    expect(decide('hard', '8S 8H', '9C')).toBe('split');
  });

  it('splits 8s against a ten with "original bets only"', () => {
    expect(decide('hard', '8S 8H', 'TC', obo)).toBe('split');
  });

  it('falls back when the preferred action is not legal: a 3-card 11 hits instead of doubling', () => {
    expect(decide('hard', '5S 4H 2D', '6C')).toBe('hit');
    expect(decide('hard', '5S 6H', '6C')).toBe('double');
    // After 4 hands a pair of 8s is a hard 16: stand against 6.
    expect(botDecision('hard', view('8S 8H', '6C', european, 4))).toBe('stand');
  });
});

describe('every bot answers with a legal action', () => {
  it.each(['easy', 'normal', 'hard'] as const)('%s', (d) => {
    const ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T'];
    for (const a of ranks)
      for (const b of ranks)
        for (const u of ranks) {
          const v = view(`${a}S ${b}H`, `${u}C` as CardCode);
          if (v.legalActions.length === 0) continue; // BJ / 21 closes the hand
          expect(v.legalActions).toContain(botDecision(d, v));
        }
  });
});
