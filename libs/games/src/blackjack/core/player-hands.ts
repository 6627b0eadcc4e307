import { CardCode } from '@studio/cards';
import { handTotal, isBlackjack, isSplittablePair, rankOf } from './hand';
import { BlackjackRules } from './rules';

/** The actions a player takes on a hand. Insurance is a separate, per-player decision. */
export const PLAYER_ACTIONS = ['hit', 'stand', 'double', 'split', 'surrender'] as const;
export type PlayerAction = (typeof PLAYER_ACTIONS)[number];

export function isPlayerAction(value: unknown): value is PlayerAction {
  return typeof value === 'string' && (PLAYER_ACTIONS as readonly string[]).includes(value);
}

/**
 * 'awaiting-card': the hand needs its next card (initial deal, hit, double, split);
 * 'acting': the owner must decide; 'closed': no more cards.
 */
export type HandStatus = 'awaiting-card' | 'acting' | 'closed';

export interface PlayerHand {
  readonly cards: readonly CardCode[];
  /** Main stake on this hand in minor units, doubled included. */
  readonly stake: number;
  /** Created by a split (so A + ten-value is 21, not BJ). Both hands of a split are. */
  readonly fromSplit: boolean;
  /** The hand that a split moved the second card into (holds a new, equal stake). */
  readonly splitOff: boolean;
  readonly splitAces: boolean;
  readonly doubled: boolean;
  readonly surrendered: boolean;
  readonly status: HandStatus;
}

/** One player's hands (one, or more after splits), played strictly in order. */
export interface PlayerHands {
  readonly hands: readonly PlayerHand[];
}

export function newPlayerHands(stake: number): PlayerHands {
  return {
    hands: [
      {
        cards: [],
        stake,
        fromSplit: false,
        splitOff: false,
        splitAces: false,
        doubled: false,
        surrendered: false,
        status: 'awaiting-card',
      },
    ],
  };
}

/** Index of the first hand that is not closed, or -1 when the player is finished. */
export function currentHandIndex(p: PlayerHands): number {
  return p.hands.findIndex((h) => h.status !== 'closed');
}

export type PlayerStatus = 'awaiting-card' | 'acting' | 'done';

export function playerStatus(p: PlayerHands): PlayerStatus {
  const i = currentHandIndex(p);
  return i < 0 ? 'done' : p.hands[i].status === 'acting' ? 'acting' : 'awaiting-card';
}

export interface ActionContext {
  /** Total hands the player holds (split limit). */
  readonly handCount: number;
}

/** Legal actions on one hand under the table's rules (empty unless the hand is acting). */
export function legalActions(
  hand: PlayerHand,
  ctx: ActionContext,
  rules: BlackjackRules,
): PlayerAction[] {
  if (hand.status !== 'acting') return [];
  // Only reachable with re-splittable aces: such a hand may split again or stand, nothing else.
  if (hand.splitAces && !rules.hitSplitAces) return ['stand', 'split'];
  const out: PlayerAction[] = ['hit', 'stand'];
  const firstTwo = hand.cards.length === 2;
  if (firstTwo && canDouble(hand, rules)) out.push('double');
  if (
    firstTwo &&
    ctx.handCount < rules.maxHands &&
    isSplittablePair(hand.cards, rules.splitBy) &&
    !(hand.splitAces && !rules.resplitAces)
  ) {
    out.push('split');
  }
  if (firstTwo && !hand.fromSplit && rules.surrender !== 'none') out.push('surrender');
  return out;
}

function canDouble(hand: PlayerHand, rules: BlackjackRules): boolean {
  if (hand.splitAces) return false;
  if (hand.fromSplit && !rules.doubleAfterSplit) return false;
  const { total, soft } = handTotal(hand.cards);
  switch (rules.doubleOn) {
    case 'any-two':
      return true;
    case 'nine-to-eleven':
      return !soft && total >= 9 && total <= 11;
    case 'ten-or-eleven':
      return !soft && total >= 10 && total <= 11;
  }
}

/** The automatic play for a missing decision: hit while 11 or less (aces 11 unless busting), then stand. */
export function autoPlayAction(hand: PlayerHand): 'hit' | 'stand' {
  return handTotal(hand.cards).total <= 11 ? 'hit' : 'stand';
}

export type ApplyResult = { ok: true; player: PlayerHands } | { ok: false; reason: string };

/** Applies an action to the current hand. Illegal actions come back as a reason, never thrown. */
export function applyAction(
  p: PlayerHands,
  action: PlayerAction,
  rules: BlackjackRules,
): ApplyResult {
  const i = currentHandIndex(p);
  if (i < 0) return { ok: false, reason: 'the player has no open hand' };
  const hand = p.hands[i];
  const legal = legalActions(hand, { handCount: p.hands.length }, rules);
  if (!legal.includes(action)) {
    return {
      ok: false,
      reason: `${action} is not legal now (legal: ${legal.join(', ') || 'none'})`,
    };
  }
  const replace = (...hs: PlayerHand[]): PlayerHands => ({
    hands: [...p.hands.slice(0, i), ...hs, ...p.hands.slice(i + 1)],
  });
  switch (action) {
    case 'hit':
      return { ok: true, player: replace({ ...hand, status: 'awaiting-card' }) };
    case 'stand':
      return { ok: true, player: replace({ ...hand, status: 'closed' }) };
    case 'double':
      return {
        ok: true,
        player: replace({ ...hand, stake: hand.stake * 2, doubled: true, status: 'awaiting-card' }),
      };
    case 'surrender':
      return { ok: true, player: replace({ ...hand, surrendered: true, status: 'closed' }) };
    case 'split': {
      const aces = rankOf(hand.cards[0]) === 'A';
      const base = { ...hand, fromSplit: true, splitAces: aces, status: 'awaiting-card' as const };
      return {
        ok: true,
        player: replace(
          { ...base, cards: [hand.cards[0]] },
          { ...base, cards: [hand.cards[1]], splitOff: true },
        ),
      };
    }
  }
}

/** The hand that the next card for this player goes to, or -1. */
export function handAwaitingCard(p: PlayerHands): number {
  const i = currentHandIndex(p);
  return i >= 0 && p.hands[i].status === 'awaiting-card' ? i : -1;
}

/** Gives the next card to the current hand and closes it when the rules say so. */
export function dealToPlayer(p: PlayerHands, card: CardCode, rules: BlackjackRules): PlayerHands {
  const i = handAwaitingCard(p);
  if (i < 0) throw new Error('dealToPlayer: no hand awaits a card'); // engines check first
  const hand = p.hands[i];
  const next = { ...hand, cards: [...hand.cards, card] };
  const hands = [...p.hands];
  hands[i] = { ...next, status: statusAfterCard(next, rules) };
  return { hands };
}

export function statusAfterCard(hand: PlayerHand, rules: BlackjackRules): HandStatus {
  if (hand.cards.length < 2) return 'awaiting-card'; // initial deal or split hand's second card
  if (hand.doubled) return 'closed'; // double gets exactly one card
  if (hand.splitAces && !rules.hitSplitAces) {
    // Split aces get one card each and are closed, unless a re-split of aces is allowed.
    const canResplit =
      rules.resplitAces && isSplittablePair(hand.cards, rules.splitBy) && rules.maxHands > 2;
    return canResplit ? 'acting' : 'closed';
  }
  const { total } = handTotal(hand.cards);
  if (total > 21) return 'closed';
  if (isBlackjack(hand.cards, hand.fromSplit)) return 'closed';
  if (total === 21 && rules.closeOn21) return 'closed';
  return 'acting';
}
