import { CardCode } from '@studio/cards';
import { PlayerAction } from '../core/player-hands';
import { BlackjackRules } from '../core/rules';

/**
 * Everything a bot is given to decide: only what any player at the table may see (games.md §4).
 * Its own hands, the dealer's face-up card, the other seats' face-up cards, the table's public
 * rules and the legal actions the service computed. Never the hidden card, never the shoe.
 */
export interface BotView {
  readonly rules: BlackjackRules;
  readonly seat: number;
  readonly dealerUp: CardCode;
  readonly hands: readonly BotHandView[];
  /** Index in `hands` of the hand to decide on. */
  readonly currentHand: number;
  readonly legalActions: readonly PlayerAction[];
  readonly otherSeats: readonly { readonly seat: number; readonly cards: readonly CardCode[] }[];
}

export interface BotHandView {
  readonly cards: readonly CardCode[];
  readonly fromSplit: boolean;
  readonly doubled: boolean;
}

export const BOT_DIFFICULTIES = ['easy', 'normal', 'hard'] as const;
export type BotDifficulty = (typeof BOT_DIFFICULTIES)[number];
