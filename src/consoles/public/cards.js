// Playing cards drawn with CSS: a face (rank and suit) or, for a face-down card, a back.
import { el } from './console.js';

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
      'aria-label': `${slot ? `${slot}: ` : ''}face-down card`,
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
      'aria-label': `${slot ? `${slot}: ` : ''}${RANK_NAMES[rank] ?? rank} of ${suitName}${hidden ? ' (face down at the table)' : ''}`,
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
