import {
  Card,
  CardCode,
  cardCode,
  cardFromIndex,
  CARDS_PER_DECK,
  RANKS,
  SUITS,
} from '@studio/cards';

/**
 * Shared, frozen card values and byte lookups so that hot decode loops allocate no card objects
 * and build no strings to recognise a two-character card code.
 */
export const CARD_BY_INDEX: readonly Card[] = Array.from({ length: CARDS_PER_DECK }, (_, i) =>
  Object.freeze(cardFromIndex(i)),
);
export const CODE_BY_INDEX: readonly CardCode[] = CARD_BY_INDEX.map(cardCode);

/** Byte -> rank index (0..12) or -1; upper case only (the framed protocol is strict). */
export const RANK_OF_BYTE = new Int8Array(256).fill(-1);
/** Byte -> suit index (0..3) or -1. */
export const SUIT_OF_BYTE = new Int8Array(256).fill(-1);
RANKS.forEach((r, i) => (RANK_OF_BYTE[r.charCodeAt(0)] = i));
SUITS.forEach((s, i) => (SUIT_OF_BYTE[s.charCodeAt(0)] = i));

/** Index 0..51 of the card whose rank and suit bytes these are, or -1. */
export function cardIndexOfBytes(rankByte: number, suitByte: number): number {
  const r = RANK_OF_BYTE[rankByte];
  const s = SUIT_OF_BYTE[suitByte];
  return r < 0 || s < 0 ? -1 : s * 13 + r;
}

/** Every spelling of a card a keyboard-style reader may send (`AS`, `as`, `10H`, `Td`), upper-cased. */
export function standardSpellings(): Map<string, number> {
  const map = new Map<string, number>();
  CODE_BY_INDEX.forEach((code, index) => {
    map.set(code, index);
    if (code[0] === 'T') map.set(`10${code[1]}`, index);
  });
  return map;
}
