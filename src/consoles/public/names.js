// Words the consoles show for the service's codes: game names, outcomes, reasons, plurals.
// Pure functions: no DOM, no clock (unit-tested).
import { playerName } from './players.js';

/** Each game as the pit calls it. */
export const GAME_NAMES = {
  'pok-deng': 'Pok Deng',
  'infinite-blackjack': 'Infinite Blackjack',
  'blackjack-lux': 'Blackjack Lux',
  'european-blackjack-practice': 'European Blackjack (practice)',
};

/**
 * @param {string} game
 * @returns {string}
 */
export function gameName(game) {
  return GAME_NAMES[game] ?? sentence(game);
}

/**
 * A table's name with its game, the game named once: "Pok Deng 1" stays as it is,
 * "Floor 3" becomes "Floor 3 · Pok Deng".
 * @param {string} name
 * @param {string} game
 * @returns {string}
 */
export function tableTitle(name, game) {
  const named = gameName(game);
  const plain = named.replace(/\s*\(.*\)$/, '').toLowerCase();
  const words = String(name).toLowerCase();
  return words.includes(plain) || words.includes(game.replace(/-/g, ' '))
    ? name
    : `${name} · ${named}`;
}

/**
 * "1 settlement", "2 settlements".
 * @param {number} count
 * @param {string} one
 * @param {string} [many]
 * @returns {string}
 */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** "a 8-deck shoe" → "an 8-deck shoe" (and 11, 18, 80-89), in texts made elsewhere. */
export function fixArticles(text) {
  return String(text ?? '').replace(/\b([Aa]) (8|11|18|8\d)(?=\b)/g, '$1n $2');
}

const REASON_CODES = {
  '(attempts)': ': the rescan limit was reached',
  '(time)': ': rescanning took too long',
};

/**
 * A pause or alert reason in words: the trailing reason code the table adds ("(attempts)") is
 * replaced by what it means, articles are fixed.
 * @param {string} text
 * @returns {string}
 */
export function reasonText(text) {
  let out = fixArticles(text);
  for (const [code, words] of Object.entries(REASON_CODES)) {
    if (out.endsWith(` ${code}`)) out = out.slice(0, -(code.length + 1)) + words;
  }
  return out;
}

const OUTCOMES = {
  'player-wins': 'player wins',
  'player-wins-special-pattern': 'player wins with a flush, pair or combination (2:1 or more)',
  'player-wins-8-or-9-flush-or-pair-against-0-or-6':
    'player wins: pok 8 or 9 with a flush or pair against a banker 0 or 6',
  'player-wins-special-pattern-banker-0-or-6':
    'player wins with a flush, pair or combination against a banker 0 or 6',
  'banker-wins': 'banker wins',
  'banker-wins-special-pattern': 'banker wins with a flush, pair or combination (2:1 or more)',
  tie: 'tie: stake returned',
  'pair-wins': 'pair bet wins',
  'pair-loses': 'pair bet loses',
  'void-refund': 'refunded: the round was voided',
  cancelled: 'cancelled by its platform while betting was open: stake returned',
  win: 'win',
  lose: 'lose',
  push: 'push: stake returned',
  blackjack: 'blackjack',
  bust: 'bust',
  surrender: 'surrendered: half the stake returned',
};

/**
 * A settlement or hand outcome in words.
 * @param {string} code
 * @returns {string}
 */
export function outcomeText(code) {
  return OUTCOMES[code] ?? sentence(code).toLowerCase();
}

const POK_DENG_COMBINATIONS = {
  1: 'two cards of one suit with no point',
  2: 'a ten with a picture card',
  3: 'a pair of picture cards',
  4: 'a pair of aces, fives, sixes or tens',
  5: 'ace and king of one suit',
};

/**
 * A hand total in words. Pok Deng shows combinations as 7.1 to 7.5: they beat 7 points and lose
 * to 8 ("7.2" is a ten with a picture card); other totals are points.
 * @param {string} total
 * @param {string} game
 * @returns {string}
 */
export function totalText(total, game) {
  const match = /^7\.([1-5])$/.exec(String(total));
  if (game === 'pok-deng' && match) {
    return `${total}: ${POK_DENG_COMBINATIONS[match[1]]}, beats 7 points, loses to 8`;
  }
  return game === 'pok-deng' ? `${total} points` : `total ${total}`;
}

/**
 * A card's slot as the table says it: "Player 3, card 2", "Dealer hole card", "Seat 1, card 3",
 * "Common draw 2", "New shoe: burn card 4". Unknown slots stay as they are.
 * @param {string} slot
 * @returns {string}
 */
export function slotText(slot) {
  const s = String(slot);
  const fixed = {
    'shoe-burn/shown': 'New shoe: shown card',
    burn: 'Burn card',
    'dealer-up': 'Dealer up card',
    'dealer-hole': 'Dealer hole card',
  };
  if (fixed[s]) return fixed[s];
  const rules = [
    [/^shoe-burn\/(\d+)$/, (m) => `New shoe: burn card ${m[1]}`],
    [/^player-(\d+)\/(\d+)$/, (m) => `Player ${m[1]}, card ${m[2]}`],
    [/^banker\/(\d+)$/, (m) => `Banker, card ${m[1]}`],
    [/^dealer\/(\d+)$/, (m) => `Dealer card ${m[1]}`],
    [/^player\/(\d+)$/, (m) => `Player hand, card ${m[1]}`],
    [/^common\/(\d+)$/, (m) => `Common draw ${m[1]}`],
    [
      /^seat-(\d+)\/(\d+)\/(\d+)$/,
      (m) => `Seat ${m[1]}${m[2] === '1' ? '' : `, hand ${m[2]}`}, card ${m[3]}`,
    ],
  ];
  for (const [pattern, words] of rules) {
    const match = pattern.exec(s);
    if (match) return words(match);
  }
  return s;
}

const DONE = {
  hit: 'hit',
  stand: 'stood',
  double: 'doubled',
  split: 'split',
  surrender: 'surrendered',
};

/**
 * The currencies a table takes, its default first: "THB", "THB, EUR" (bets may be in any of them).
 * @param {{currency: string, currencies?: string[]}} table
 * @returns {string}
 */
export function currenciesText({ currency, currencies }) {
  return (currencies?.length ? currencies : [currency]).join(', ');
}

/**
 * The decisions of an Infinite Blackjack player group in words: "stood", "hit, then stood",
 * "split, hit, then stood".
 * @param {string[]} actions
 * @returns {string}
 */
export function decisionsText(actions) {
  const words = actions.map((a) => DONE[a] ?? humanWord(a));
  if (words.length === 0) return 'made no decision';
  if (words.length === 1) return words[0];
  return `${words.slice(0, -1).join(', ')}, then ${words[words.length - 1]}`;
}

/**
 * A hand of a finished round (round_hands) as the game names it. Infinite Blackjack records one
 * hand per group of players who decided alike (`node-4/1`, owner "120 players: hit stand"): the
 * player hand everybody played, with the group and its decisions. `split` says whether the
 * seat or group holds more than one hand. A seat's hand names its player (`player`, sent by the
 * service for seats) by the platform's own playerId.
 * @param {{hand: string, owner: string | null, player?: {platformId: string, playerId: string}}} record
 * @param {boolean} split
 * @returns {string}
 */
export function handName({ hand, owner, player }, split = false) {
  const node = /^node-\d+\/(\d+)$/.exec(hand);
  if (node) {
    const group = /^(\d+) players?: (.*)$/.exec(owner ?? '');
    const which = split ? `, ${node[1] === '1' ? 'first' : 'second'} hand of the split` : '';
    if (!group) return `Player hand${which}`;
    const actions = group[2] === 'initial hand' ? [] : group[2].split(' ');
    return `Player hand${which} · ${plural(Number(group[1]), 'player')} who ${decisionsText(actions)}`;
  }
  const seat = /^seat-(\d+)\/(\d+)$/.exec(hand);
  // A seated player by its own playerId (the page puts its platform beside it), not its key.
  const name = player ? playerName(player) : owner;
  const who = name ? ` (${name})` : '';
  if (seat) return `Seat ${seat[1]}${split ? `, hand ${seat[2]}` : ''}${who}`;
  const pokDeng = /^player-(\d+)$/.exec(hand);
  if (pokDeng) return `Player ${pokDeng[1]}${who}`;
  return `${sentence(hand)}${who}`;
}

function humanWord(code) {
  return String(code ?? '').replace(/[-_]/g, ' ');
}

function sentence(code) {
  return String(code ?? '')
    .replace(/[-_]/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}
