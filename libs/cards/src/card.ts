/**
 * Playing cards as the whole studio names them: rank then suit, `AS` (ace of spades), `TH`
 * (ten of hearts), `QD`, `7C`. Cards are plain serialisable values; a card's index 0..51 is a
 * compact form for hot loops and composition counts.
 */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
export const SUITS = ['S', 'H', 'D', 'C'] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
export type CardCode = `${Rank}${Suit}`;

export interface Card {
  readonly rank: Rank;
  readonly suit: Suit;
}

export const CARDS_PER_DECK = 52;

const RANK_INDEX: Record<Rank, number> = Object.fromEntries(RANKS.map((r, i) => [r, i])) as Record<
  Rank,
  number
>;
const SUIT_INDEX: Record<Suit, number> = Object.fromEntries(SUITS.map((s, i) => [s, i])) as Record<
  Suit,
  number
>;

export function card(code: CardCode): Card {
  return { rank: code[0] as Rank, suit: code[1] as Suit };
}

/** Builds cards from a space-separated list of codes: `cards('AS KH 9D')`. */
export function cards(codes: string): Card[] {
  return codes
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => {
      const parsed = parseCardCode(c);
      if (!parsed) throw new Error(`Not a card code: "${c}"`);
      return parsed;
    });
}

export function cardCode(c: Card): CardCode {
  return `${c.rank}${c.suit}`;
}

export function isRank(value: string): value is Rank {
  return value in RANK_INDEX;
}

export function isSuit(value: string): value is Suit {
  return value in SUIT_INDEX;
}

/**
 * Parses a card code leniently, as readers and people write them: `AS`, `as`, `10H`, `Td`, `1S`
 * is not accepted (ambiguous). Returns undefined for anything that is not exactly one card.
 */
export function parseCardCode(text: string): Card | undefined {
  const t = text.trim().toUpperCase();
  let rankText: string;
  let suitText: string;
  if (t.length === 3 && t.startsWith('10')) {
    rankText = 'T';
    suitText = t[2];
  } else if (t.length === 2) {
    rankText = t[0];
    suitText = t[1];
  } else {
    return undefined;
  }
  if (!isRank(rankText) || !isSuit(suitText)) return undefined;
  return { rank: rankText, suit: suitText };
}

export function rankIndex(rank: Rank): number {
  return RANK_INDEX[rank];
}

export function suitIndex(suit: Suit): number {
  return SUIT_INDEX[suit];
}

/** 0..51: suit-major (spades A..K, hearts A..K, diamonds, clubs). */
export function cardIndex(c: Card): number {
  return SUIT_INDEX[c.suit] * 13 + RANK_INDEX[c.rank];
}

export function cardFromIndex(index: number): Card {
  if (!Number.isInteger(index) || index < 0 || index >= CARDS_PER_DECK) {
    throw new RangeError(`Card index out of range: ${index}`);
  }
  return { rank: RANKS[index % 13], suit: SUITS[Math.floor(index / 13)] };
}

export function isRed(suit: Suit): boolean {
  return suit === 'H' || suit === 'D';
}

/** T, J, Q and K. */
export function isTenValue(rank: Rank): boolean {
  return rank === 'T' || rank === 'J' || rank === 'Q' || rank === 'K';
}

/** J, Q and K (not the ten). */
export function isFaceCard(rank: Rank): boolean {
  return rank === 'J' || rank === 'Q' || rank === 'K';
}

export function sameCard(a: Card, b: Card): boolean {
  return a.rank === b.rank && a.suit === b.suit;
}

/** One standard 52-card deck, no jokers, in index order. */
export function standardDeck(): Card[] {
  return Array.from({ length: CARDS_PER_DECK }, (_, i) => cardFromIndex(i));
}

/** N standard decks in index order (unshuffled). */
export function decks(count: number): Card[] {
  const out: Card[] = [];
  for (let d = 0; d < count; d += 1) out.push(...standardDeck());
  return out;
}
