// Playing cards drawn with CSS: a face (rank and suit) or, for a face-down card, a back; and the
// round's hands, each with its name and its total in the game's words.
import { el } from './console.js';
import { slotText } from './names.js';

const SUITS = {
  S: ['♠', 'spades', false],
  H: ['♥', 'hearts', true],
  D: ['♦', 'diamonds', true],
  C: ['♣', 'clubs', false],
};
const RANKS = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };
const RANK_NAMES = { A: 'ace', T: 'ten', J: 'jack', Q: 'queen', K: 'king' };

/**
 * One card. `code` is the service's card code ("AS", "TD", "9H"); null draws the back of a
 * face-down card. `slot` labels the card for screen readers and tests.
 */
export function cardElement(code, { slot, hidden = false } = {}) {
  if (!code) {
    return el('span', {
      className: 'card back',
      role: 'img',
      'aria-label': `${slot ? `${slotText(slot)}: ` : ''}face-down card`,
      'data-slot': slot,
      'data-face': 'down',
    });
  }
  const rank = code.slice(0, -1);
  const [symbol, suitName, red] = SUITS[code.slice(-1)] ?? ['?', 'unknown suit', false];
  const shown = RANKS[rank] ?? rank;
  return el(
    'span',
    {
      className: `card face${red ? ' red' : ''}${hidden ? ' hidden-to-table' : ''}`,
      role: 'img',
      'aria-label': `${slot ? `${slotText(slot)}: ` : ''}${RANK_NAMES[rank] ?? rank} of ${suitName}${hidden ? ' (face down at the table)' : ''}`,
      'data-slot': slot,
      'data-face': 'up',
      'data-card': code,
    },
    [
      el('span', { className: 'rank' }, shown),
      el('span', { className: 'suit', 'aria-hidden': 'true' }, symbol),
    ],
  );
}

/**
 * The round's cards grouped by hand, as the service groups them (`view.hands`): each hand with
 * its name ("Player 3", "Seat 2, hand 2", "Dealer") and its total ("soft 17", "pok 9 · 2 deng").
 * A face-down hand says so instead of a total; on a supervisor's screen (`privileged`) its total
 * includes the face-down cards and is marked as such.
 */
export function handsElement(hands, { privileged = false } = {}) {
  return hands.map((h) => {
    const note = h.total
      ? `${h.total}${privileged && h.faceDown ? ' (with face-down cards)' : ''}`
      : h.faceDown
        ? 'face down'
        : '';
    return el(
      'section',
      {
        className: `hand${h.kind ? ` total-${h.kind}` : ''}`,
        'data-hand': h.id,
        'aria-label': `${h.name}${note ? `: ${note}` : ''}`,
      },
      [
        el('div', { className: 'hand-head' }, [
          el('span', { className: 'hand-name' }, h.name),
          el('strong', { className: 'hand-total', 'data-kind': h.kind ?? '' }, note),
        ]),
        el(
          'div',
          { className: 'hand-cards' },
          h.cards.map((c) => cardElement(c.card, { slot: c.slot, hidden: c.hidden })),
        ),
      ],
    );
  });
}
