import type { CardCode } from '@studio/cards';
import type { BotDifficulty, EuropeanState } from '@studio/games/blackjack';

/*
 * The practice table's round as the table stores it (JSON in the table state): the seats' bets,
 * bots included, the cards dealt with their slots, and the European engine's own state.
 */

export type PracticePhase = 'betting' | 'dealing' | 'playing' | 'settled' | 'voided';

export interface PracticeSeatBet {
  seat: number;
  /** A platform player, or `bot:<seat>`. */
  playerId: string;
  bot: BotDifficulty | null;
  stake: number;
}

export interface PracticeState {
  roundId: string;
  roundOfShoe: number;
  phase: PracticePhase;
  /** Decision window counter: the token of the `decision` timer. */
  window: number;
  bets: PracticeSeatBet[];
  /** Seat bets cancelled this round (`seat/player`). */
  cancelled?: string[];
  /** The round's cards as the table dealt them, with their slots. */
  dealt: Array<{ slot: string; card: CardCode }>;
  engine: EuropeanState | null;
  voidReason: string | null;
}
