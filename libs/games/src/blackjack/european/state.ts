import { CardCode } from '@studio/cards';
import { EventEffect, StepResult, TimerEffect } from '../core/engine';
import { PlayerAction, PlayerHands } from '../core/player-hands';
import { BlackjackRules, rulesFor } from '../core/rules';
import { HandSettlement } from '../core/settle';
import { BotDifficulty } from '../bots/view';

/** The European practice table's state (plain JSON), its inputs and its effects. */

export interface EuropeanConfig {
  readonly rules: BlackjackRules;
  readonly seats: number;
  /** Cards dealt from a shoe before the next round needs a new shoe (the virtual cut card). */
  readonly cutCardAt: number;
}

export const DEFAULT_EUROPEAN_CONFIG: EuropeanConfig = {
  rules: rulesFor('european-practice'),
  seats: 7,
  cutCardAt: 234, // 75% of 312 cards
};

export type SeatOccupant =
  | { readonly kind: 'player'; readonly playerId: string }
  | { readonly kind: 'bot'; readonly difficulty: BotDifficulty };

/** How the shoe order was produced: enough to replay it (the order itself is stored too). */
export interface ShuffleRecord {
  readonly method: 'fisher-yates';
  readonly source: 'crypto' | 'seeded';
  /** Present for seeded shuffles. */
  readonly seed?: number;
}

export interface VirtualShoe {
  readonly shoeNumber: number;
  readonly order: readonly CardCode[];
  /** Index of the next card to draw. */
  readonly next: number;
  readonly shuffle: ShuffleRecord;
}

export interface SeatRound {
  readonly seat: number;
  readonly occupant: SeatOccupant;
  /** The original stake in virtual minor units (100 = 1 unit). */
  readonly stake: number;
  readonly player: PlayerHands;
  readonly settlements: readonly HandSettlement[] | null;
  /** Net result in units of the original stake: +1 win, -1 loss, 0 push, +1.5 BJ, ... */
  readonly score: number | null;
}

/**
 * `dealing`: the initial deal is under way; `playing`: the seats act (a seat's hand may wait for a
 * card); `dealer`: the hidden card is revealed and the dealer draws to 17; then settled or void.
 */
export type EuropeanPhase = 'dealing' | 'playing' | 'dealer' | 'settled' | 'void';

export interface EuropeanRound {
  readonly number: number;
  readonly shoeNumber: number;
  /** Position in the shoe order of the round's first card (replay). */
  readonly firstCardIndex: number;
  readonly phase: EuropeanPhase;
  readonly seats: readonly SeatRound[];
  /** Cards of the initial deal given so far (two per seat and two for the dealer). */
  readonly initialDealt: number;
  readonly dealer: {
    /** Null until dealt. */
    readonly up: CardCode | null;
    /** Face down until `revealed`; never part of a player or bot view before. */
    readonly hidden: CardCode | null;
    readonly draws: readonly CardCode[];
    readonly revealed: boolean;
  };
  /** Index in `seats` of the seat to act (or whose hand waits for a card), or -1. */
  readonly turn: number;
}

export interface EuropeanState {
  readonly config: EuropeanConfig;
  /** The driver's virtual shoe (`stepEuropean`); the card-input engine never reads it. */
  readonly shoe: VirtualShoe | null;
  readonly roundsPlayed: number;
  readonly round: EuropeanRound | null;
  /** Session scores in units, per player id or `bot:<seat>`. */
  readonly scores: Readonly<Record<string, number>>;
}

export interface EuropeanBet {
  readonly seat: number;
  readonly occupant: SeatOccupant;
  readonly stake: number;
}

/** The inputs of the card-input engine: the caller deals each card the engine expects. */
export type EuropeanRoundInput =
  | {
      readonly type: 'start-round';
      readonly bets: readonly EuropeanBet[];
      /** Where the round starts in the caller's shoe, recorded for replay (Default 0). */
      readonly firstCardIndex?: number;
      readonly shoeNumber?: number;
    }
  /** The card for the slot `europeanExpectedCard` names. */
  | { readonly type: 'card'; readonly card: CardCode }
  | { readonly type: 'decide'; readonly seat: number; readonly action: PlayerAction }
  /** The seat's decision window ran out: auto-play (games.md §0). */
  | { readonly type: 'timeout'; readonly seat: number };

export type EuropeanEffect = EventEffect | TimerEffect;
export type EuropeanStep = StepResult<EuropeanState, EuropeanEffect>;

/** Where the next card goes. */
export type EuropeanSlot =
  | { readonly to: 'seat'; readonly seat: number; readonly hand: number }
  | { readonly to: 'dealer-up' }
  | { readonly to: 'dealer-hidden' }
  | { readonly to: 'dealer' };
