import { isGameKind } from '@studio/contracts';
import { platformOfKey, playerOfKey } from '../common/player-key';
import { gameDefinition } from '../games/game-registry';
import type { DealtCard, HandRecord } from '../history/reader/round-cards.reader';

/** A card of the round as a platform sees it: a card never turned face up by its slot only. */
export type PlatformCard = { slot: string; faceDown: true } | { slot: string; card: string };

/** A hand as a platform sees it: a card never shown at the table is null, and so is the total. */
export interface PlatformHand {
  hand: string;
  owner: string | null;
  cards: Array<string | null>;
  total: string | null;
  result: string | null;
}

/**
 * Whether every platform may see the game's hands of this owner: the dealer's (no owner), and a
 * game's player hands that many players share (GameDefinition.sharedPlayerHands: Infinite
 * Blackjack's common hand, owned by "2 players: stand"), which no player key names.
 */
function sharedHands(game: string): (hand: { owner: string | null }) => boolean {
  const shared = isGameKind(game) && gameDefinition(game).sharedPlayerHands === true;
  return (hand) => hand.owner === null || shared;
}

/** A card never turned face up at the table (still face down, or never revealed by a void). */
function unrevealed(card: DealtCard): boolean {
  return card.faceDown && !card.revealedAt;
}

/** Whether a slot is one of a hand's: `player-1/2` of `player-1`, `dealer-hole` of `dealer`. */
function inHand(slot: string, hand: string): boolean {
  return slot === hand || slot.startsWith(`${hand}/`) || slot.startsWith(`${hand}-`);
}

/**
 * The cards and hands of a round for one platform. Face-down cards reach no platform before they
 * are revealed at the table, and a round that ends without revealing them (a void; a Pok Deng
 * burn) never reveals them: such a card is named by its slot in `cards`. The hands (`round_hands`,
 * written at the round's end, voided rounds included) hold their cards by value, not by slot, so
 * a hand's card is withheld (null) when its value is that of one of the hand's own slots still
 * face down (the same value dealt face up in that hand too is withheld with it: which of the two
 * it is would tell), and a hand with a card withheld has no total. Only the dealer's and shared
 * hands (sharedHands) and the platform's own players' are given, each player by the platform's id.
 */
export function platformRoundCards(
  platformId: string,
  game: string,
  dealt: readonly DealtCard[],
  hands: readonly HandRecord[],
): { cards: PlatformCard[]; hands: PlatformHand[] } {
  const hidden = dealt.filter(unrevealed);
  const shared = sharedHands(game);
  return {
    cards: dealt.map((c) =>
      unrevealed(c) ? { slot: c.slot, faceDown: true } : { slot: c.slot, card: c.card },
    ),
    hands: hands
      .filter((h) => shared(h) || platformOfKey(h.owner!) === platformId)
      .map((h) => {
        const withheld = new Set(hidden.filter((c) => inHand(c.slot, h.hand)).map((c) => c.card));
        const cards = h.cards.map((card) => (withheld.has(card) ? null : card));
        return {
          hand: h.hand,
          owner: shared(h) ? h.owner : playerOfKey(h.owner!).playerId,
          cards,
          total: cards.includes(null) ? null : h.total,
          result: h.result,
        };
      }),
  };
}
