import { CardCode, parseCardCode } from '@studio/cards';
import type { GameKind } from '@studio/contracts';
import { cardValue, handTotal, isBlackjack } from '@studio/games/blackjack';
import { evaluateHand, formatScore, SpecialCombination } from '@studio/games/pok-deng';
import type { ConsoleCard } from './console-cards';

/**
 * What a total is, for the page's colours and for tests: a blackjack total (`hard`, `soft`,
 * `bust`, `blackjack`), the visible part of a hand with a card still face down (`showing`), or a
 * Pok Deng score (`pok`, `combination`, `points`).
 */
export type TotalKind =
  'hard' | 'soft' | 'bust' | 'blackjack' | 'showing' | 'pok' | 'combination' | 'points';

/** The cards of one hand (or the burn) as a dealer calls them, with its total in the game's words. */
export interface ConsoleHand {
  /** Stable key: `dealer`, `banker`, `player-3`, `seat-2/1`, `player`, `common`, `burn`. */
  id: string;
  /** As the game names it: "Player 3", "Banker", "Seat 2", "Seat 2, hand 2", "Player hand". */
  name: string;
  cards: ConsoleCard[];
  /** "soft 17", "bust 24", "blackjack", "pok 9 · 2 deng", "5 points"; null: nothing to total. */
  total: string | null;
  kind: TotalKind | null;
  /** A card of the hand is still face down at the table (a supervisor's total includes it). */
  faceDown: boolean;
}

/**
 * Per seat, how many cards each of its hands holds in the engine right now: it knows of a split
 * whose new hand has no card of its own yet, and which hand a split card went to.
 */
export type SeatHandSizes = ReadonlyMap<number, readonly number[]>;

/**
 * The round's cards grouped by hand with their totals. Only the cards the viewer may see count:
 * `card` is null for a face-down card on a dealer's view, so no total can give it away.
 */
export function consoleHands(
  game: GameKind,
  cards: readonly ConsoleCard[],
  seatHandSizes: SeatHandSizes = new Map(),
): ConsoleHand[] {
  switch (game) {
    case 'pok-deng':
      return pokDengHands(cards);
    case 'infinite-blackjack':
      return infiniteHands(cards);
    case 'blackjack-lux':
    case 'european-blackjack-practice':
      return seatedHands(cards, seatHandSizes);
  }
}

/**
 * The sizes of each seat's hands in the engine's public view of a seated blackjack table (Lux and
 * the practice table show `seats[].hands[].cards`, all of them face up).
 */
export function seatHandSizesOf(view: unknown): Map<number, number[]> {
  const sizes = new Map<number, number[]>();
  const seats = (view as { seats?: unknown } | null | undefined)?.seats;
  if (!Array.isArray(seats)) return sizes;
  for (const s of seats as Array<{ seat?: unknown; hands?: Array<{ cards?: unknown }> }>) {
    if (typeof s?.seat !== 'number' || !Array.isArray(s.hands)) continue;
    const hands = s.hands.map((h) => (Array.isArray(h?.cards) ? h.cards.length : 0));
    if (hands.some((n) => n > 0)) sizes.set(s.seat, hands);
  }
  return sizes;
}

// ---- grouping -----------------------------------------------------------------------------------

/** Groups cards by key in dealing order; the groups appear in the order of their first card. */
function groupBy(cards: readonly ConsoleCard[], keyOf: (slot: string) => string) {
  const groups = new Map<string, ConsoleCard[]>();
  for (const c of cards) {
    const key = keyOf(c.slot);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return groups;
}

function burnKey(slot: string): string | undefined {
  if (slot.startsWith('shoe-burn')) return 'shoe-burn';
  if (slot === 'burn') return 'burn';
  return undefined;
}

const BURN_NAMES: Record<string, string> = {
  'shoe-burn': 'Burn of the new shoe',
  burn: 'Burn',
  other: 'Other cards',
};

function plainHand(id: string, name: string, cards: ConsoleCard[]): ConsoleHand {
  return { id, name, cards, total: null, kind: null, faceDown: cards.some((c) => c.hidden) };
}

function pokDengHands(cards: readonly ConsoleCard[]): ConsoleHand[] {
  const groups = groupBy(
    cards,
    (slot) => burnKey(slot) ?? /^(player-\d|banker)\//.exec(slot)?.[1] ?? 'other',
  );
  return [...groups].map(([id, group]) => {
    const name =
      BURN_NAMES[id] ?? (id === 'banker' ? 'Banker' : `Player ${id.slice('player-'.length)}`);
    if (BURN_NAMES[id]) return plainHand(id, name, group);
    return { ...plainHand(id, name, group), ...pokDengTotal(group) };
  });
}

function dealerKey(slot: string): string | undefined {
  return slot === 'dealer-up' || slot === 'dealer-hole' || slot.startsWith('dealer/')
    ? 'dealer'
    : undefined;
}

/** The dealer's hand first, as a blackjack table is read; then the hands in dealing order. */
function dealerFirst(hands: ConsoleHand[]): ConsoleHand[] {
  return [...hands.filter((h) => h.id === 'dealer'), ...hands.filter((h) => h.id !== 'dealer')];
}

/**
 * Infinite Blackjack: one player hand everybody plays, the common draws that go to every hand
 * still drawing (each player's hands differ from there, so they get no one total), the dealer.
 */
function infiniteHands(cards: readonly ConsoleCard[]): ConsoleHand[] {
  const groups = groupBy(
    cards,
    (slot) =>
      burnKey(slot) ??
      dealerKey(slot) ??
      (slot.startsWith('player/') ? 'player' : slot.startsWith('common/') ? 'common' : 'other'),
  );
  const names: Record<string, string> = {
    dealer: 'Dealer',
    player: 'Player hand',
    common: 'Common draws',
  };
  return dealerFirst(
    [...groups].map(([id, group]) => {
      const hand = plainHand(id, names[id] ?? BURN_NAMES[id], group);
      return id === 'dealer' || id === 'player'
        ? { ...hand, ...blackjackTotal(group, false) }
        : hand;
    }),
  );
}

/** Blackjack Lux and the practice table: seats 1–7, a seat's hands after splits, the dealer. */
function seatedHands(cards: readonly ConsoleCard[], sizes: SeatHandSizes): ConsoleHand[] {
  const groups = groupBy(
    cards,
    (slot) => burnKey(slot) ?? dealerKey(slot) ?? /^(seat-\d+)\//.exec(slot)?.[1] ?? 'other',
  );
  const hands: ConsoleHand[] = [];
  for (const [id, group] of groups) {
    if (id === 'dealer')
      hands.push({ ...plainHand(id, 'Dealer', group), ...blackjackTotal(group, false) });
    else if (!id.startsWith('seat-')) hands.push(plainHand(id, BURN_NAMES[id], group));
    else {
      const seat = Number(id.slice('seat-'.length));
      const split = seatHands(group, sizes.get(seat));
      split.forEach((handCards, i) =>
        hands.push({
          ...plainHand(
            `${id}/${i + 1}`,
            split.length > 1 ? `Seat ${seat}, hand ${i + 1}` : `Seat ${seat}`,
            handCards,
          ),
          ...blackjackTotal(handCards, split.length > 1),
        }),
      );
    }
  }
  return dealerFirst(hands);
}

/**
 * A seat's hands from its cards' slots (`seat-S/H/N`: the seat's N-th card, dealt to hand H).
 * Hands are played in order and a split inserts its new hand right after the one being played,
 * so the hand a card was dealt to keeps its number; what the slots do not say is which cards a
 * split moved. A split moves the second card of a two-card pair of equal value into the next
 * hand; the hands waiting for their turn are a stack (the newest split is played first). The
 * smallest number of splits that explains every hand is taken; the engine's hand sizes, when
 * known, settle it (a split whose new hand has no card yet, a re-split of equal cards).
 */
export function seatHands(
  cards: readonly ConsoleCard[],
  engineSizes?: readonly number[],
): ConsoleCard[][] {
  const dealt: ConsoleCard[][] = [];
  for (const c of cards) {
    const hand = Number(/^seat-\d+\/(\d+)\//.exec(c.slot)?.[1] ?? 1) - 1;
    while (dealt.length <= hand) dealt.push([]);
    dealt[hand].push(c);
  }
  // Sizes the cards cannot explain (a view older or newer than the cards) are left aside. Without
  // them, a reading where every hand has its two cards (a played hand) comes first.
  const solved =
    (engineSizes &&
      splitHands(dealt, engineSizes.length, 0, [], (hand, i) => hand === engineSizes[i])) ||
    splitHands(dealt, dealt.length, 0, [], (hand) => hand >= 2) ||
    splitHands(dealt, dealt.length, 0, [], () => true);
  return solved ?? dealt.filter((h) => h.length > 0);
}

function splitHands(
  dealt: readonly ConsoleCard[][],
  count: number,
  index: number,
  waiting: readonly ConsoleCard[],
  fits: (size: number, index: number) => boolean,
): ConsoleCard[][] | null {
  if (index === count) return waiting.length === 0 ? [] : null;
  if (index > 0 && waiting.length === 0) return null;
  const moved = index === 0 ? [] : [waiting[waiting.length - 1]];
  const rest = index === 0 ? waiting : waiting.slice(0, -1);
  const cards = [...moved, ...(dealt[index] ?? [])];
  for (let splits = 0; splits < cards.length; splits += 1) {
    if (splits > 0 && !sameValue(cards[0], cards[splits])) break;
    const hand = [cards[0], ...cards.slice(splits + 1)];
    if (!fits(hand.length, index)) continue;
    const pushed = [...rest, ...cards.slice(1, splits + 1)];
    const later = splitHands(dealt, count, index + 1, pushed, fits);
    if (later) return [hand, ...later];
  }
  return null;
}

function sameValue(a: ConsoleCard, b: ConsoleCard): boolean {
  return (
    a.card !== null &&
    b.card !== null &&
    cardValue(a.card as CardCode) === cardValue(b.card as CardCode)
  );
}

// ---- totals -------------------------------------------------------------------------------------

function known(cards: readonly ConsoleCard[]): CardCode[] {
  return cards.filter((c) => c.card !== null).map((c) => c.card as CardCode);
}

/**
 * A blackjack hand as the dealer calls it: "blackjack" (an ace and a ten-value card as the first
 * two cards of a hand not made by a split), "bust 24", "soft 17" (an ace counted 11), "17"; a hand
 * with a card the viewer may not see shows what is visible ("showing 10"). A soft 21 is "21".
 */
export function blackjackTotal(
  cards: readonly ConsoleCard[],
  fromSplit: boolean,
): { total: string | null; kind: TotalKind | null } {
  const codes = known(cards);
  if (codes.length === 0) return { total: null, kind: null };
  const { total, soft: aceAsEleven } = handTotal(codes);
  // 21 is 21: nobody calls it soft.
  const soft = aceAsEleven && total < 21;
  const figure = `${soft ? 'soft ' : ''}${total}`;
  if (codes.length < cards.length) return { total: `showing ${figure}`, kind: 'showing' };
  if (isBlackjack(codes, fromSplit)) return { total: 'blackjack', kind: 'blackjack' };
  if (total > 21) return { total: `bust ${total}`, kind: 'bust' };
  return { total: figure, kind: soft ? 'soft' : 'hard' };
}

const COMBINATIONS: Record<SpecialCombination, string> = {
  'suited-ace-king': 'suited A-K',
  'special-pair': 'special pair',
  'picture-pair': 'two pictures',
  'single-picture-no-point': 'single picture no point',
  'flush-no-point': 'flush no point',
};

/**
 * A Pok Deng hand as the table says it, once both its cards can be seen: "pok 9" or "pok 8" (two
 * cards worth 8 or 9, a natural), a special combination with its score ("7.4 special pair"),
 * otherwise its points ("5 points"); "2 deng" when it is a special pattern (a flush, a pair or a
 * combination), which wins or loses double.
 */
export function pokDengTotal(cards: readonly ConsoleCard[]): {
  total: string | null;
  kind: TotalKind | null;
} {
  const codes = known(cards);
  if (codes.length !== 2 || cards.length !== 2) return { total: null, kind: null };
  const hand = evaluateHand(parseCardCode(codes[0])!, parseCardCode(codes[1])!);
  const deng = hand.specialPattern ? ' · 2 deng' : '';
  if (hand.points >= 8) return { total: `pok ${hand.points}${deng}`, kind: 'pok' };
  if (hand.combination) {
    return {
      total: `${formatScore(hand.score)} ${COMBINATIONS[hand.combination]}${deng}`,
      kind: 'combination',
    };
  }
  return {
    total: `${hand.points} ${hand.points === 1 ? 'point' : 'points'}${deng}`,
    kind: 'points',
  };
}
