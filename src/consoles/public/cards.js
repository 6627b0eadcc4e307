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
 * its name ("Player 3", "Seat 2, hand 2", "Dealer"), its cards and its total under them ("soft 17",
 * "pok 9 · 2 deng"). On a supervisor's screen (`privileged`) a total that includes face-down cards
 * is marked as such.
 */
export function handsElement(hands, { privileged = false } = {}) {
  return hands.map((h) => {
    // A hand still face down shows its backs and no total: there is nothing to call yet.
    const note = h.total
      ? `${h.total}${privileged && h.faceDown ? ' (with face-down cards)' : ''}`
      : '';
    return el(
      'section',
      {
        // A hand of more than two cards (or a long name) takes two columns of the felt.
        className: `hand${h.kind ? ` total-${h.kind}` : ''}${h.cards.length > 2 || h.name.length > 12 ? ' wide' : ''}`,
        'data-hand': h.id,
        'aria-label': `${h.name}${note ? `: ${note}` : ''}`,
      },
      [
        el('span', { className: 'hand-name' }, h.name),
        el(
          'div',
          { className: 'hand-cards' },
          h.cards.map((c) => cardElement(c.card, { slot: c.slot, hidden: c.hidden })),
        ),
        note
          ? el(
              'strong',
              // A long total ("7.2 single picture no point · 2 deng") in smaller type, so every
              // hand keeps the width of its cards.
              {
                className: `hand-total${note.length > 14 ? ' long' : ''}`,
                'data-kind': h.kind ?? '',
              },
              note,
            )
          : null,
      ],
    );
  });
}
