import { CardCode } from '@studio/cards';
import { PlayerAction, PlayerHand } from '../core/player-hands';
import { BlackjackRules, rulesFor } from '../core/rules';

export const LUX_SEAT_COUNT = 7;

export interface LuxLimits {
  readonly min: number;
  readonly max: number;
}

export interface LuxConfig {
  readonly rules: BlackjackRules;
  /** A player may hold more than one seat (Default maximum 2). */
  readonly maxSeatsPerPlayer: number;
  readonly bettingWindowMs: number;
  readonly decisionWindowMs: number;
  readonly insuranceWindowMs: number;
  readonly seatBet: LuxLimits;
  readonly betBehind: LuxLimits;
  readonly pairBet: LuxLimits;
  /** Last round of the shoe the pair bet is offered (null: every round; games.md names none). */
  readonly pairsLastRound: number | null;
  /**
   * A table of several currencies: each currency's limits (absent: `seatBet`, `betBehind` and
   * `pairBet`, in the table's one currency). A bet that names its currency is held to them.
   */
  readonly limitsByCurrency?: Readonly<Record<string, LuxCurrencyLimits>>;
}

export interface LuxCurrencyLimits {
  readonly seatBet: LuxLimits;
  readonly betBehind: LuxLimits;
  readonly pairBet: LuxLimits;
}

/** The limits a bet is held to in its currency; null for a currency the table does not take. */
export function luxLimitsIn(config: LuxConfig, currency?: string): LuxCurrencyLimits | null {
  const byCurrency = config.limitsByCurrency;
  if (currency === undefined || !byCurrency) return config;
  return Object.hasOwn(byCurrency, currency) ? byCurrency[currency] : null;
}

export const DEFAULT_LUX_CONFIG: LuxConfig = {
  rules: rulesFor('lux'),
  maxSeatsPerPlayer: 2,
  bettingWindowMs: 15_000,
  decisionWindowMs: 10_000,
  insuranceWindowMs: 10_000,
  seatBet: { min: 100, max: 1_000_000 },
  betBehind: { min: 100, max: 1_000_000 },
  pairBet: { min: 100, max: 100_000 },
  pairsLastRound: null,
};

export type LuxPhase =
  'idle' | 'betting' | 'dealing' | 'insurance' | 'playing' | 'dealer' | 'settled' | 'voided';

/** A player betting behind a seat: follows the seated player, with choices of their own. */
export interface LuxBehindBet {
  readonly playerId: string;
  readonly main: number;
  readonly pairs: number;
  /** Insurance stake taken (0: none). */
  readonly insurance: number;
  /** Stake on each of the seat's hands (index-aligned with the seat's hands). */
  readonly stakes: readonly number[];
  /** Whether this bet followed the double on each hand (index-aligned with the seat's hands). */
  readonly doubled: readonly boolean[];
  /** Follow a double / a split; null: no answer, which does not follow (Default). */
  readonly followDouble: boolean | null;
  readonly followSplit: boolean | null;
}

export interface LuxSeatBet {
  readonly main: number;
  readonly pairs: number;
  /** 'failed': the wallet could not take it; the seat has no valid seat bet. */
  readonly status: 'placed' | 'failed';
}

export interface LuxSeat {
  readonly seat: number;
  readonly playerId: string | null;
  /** Consecutive rounds the occupant placed no seat bet (one round of grace). */
  readonly roundsWithoutBet: number;
  readonly bet: LuxSeatBet | null;
  /** Playing this round (had a valid seat bet when betting closed). */
  readonly active: boolean;
  readonly insurance: number;
  /** The seat's first two cards as dealt (the pair bet reads them, splits or not). */
  readonly initialCards: readonly CardCode[];
  /** The seated player's hands; stakes are the seat bet in minor units. */
  readonly hands: readonly PlayerHand[];
  readonly preDecision: PlayerAction | null;
  /** The pre-decision is only ever applied at the start of the seat's turn. */
  readonly turnStarted: boolean;
  readonly behind: readonly LuxBehindBet[];
}

export type LuxDealSlot = { readonly seat: number } | 'dealer-up' | 'dealer-hole';

export interface LuxState {
  readonly game: 'blackjack-lux';
  readonly config: LuxConfig;
  readonly phase: LuxPhase;
  readonly roundId: string | null;
  readonly roundOfShoe: number;
  readonly window: number;
  readonly seats: readonly LuxSeat[];
  /** Bets cancelled this round (`seat/player/betType`): not placed again in it. */
  readonly cancelled?: readonly string[];
  readonly dealOrder: readonly LuxDealSlot[];
  readonly dealt: number;
  readonly dealer: {
    readonly up: CardCode | null;
    /** Face down until `holeRevealed`; never in a view or public event before that. */
    readonly hole: CardCode | null;
    readonly holeRevealed: boolean;
    readonly draws: readonly CardCode[];
  };
  /** Insurance answers collected in the insurance window: "seat:playerId" -> take. */
  readonly insuranceAnswers: Readonly<Record<string, boolean>>;
  readonly cardCounts: Readonly<Record<string, number>>;
  readonly earlyEnd: 'dealer-blackjack' | 'all-seats-blackjack' | null;
  readonly settlement: LuxSettlement | null;
  readonly voidReason: string | null;
}

export type LuxBet = 'main' | 'pairs' | 'insurance';

export interface LuxSettlementRecord {
  readonly playerId: string;
  readonly seat: number;
  readonly role: 'seat' | 'behind';
  readonly bet: LuxBet;
  readonly staked: number;
  readonly refunded: number;
  readonly paid: number;
  readonly houseResult: number;
  /** Main: outcome per hand; pairs: the pattern or 'lose'; insurance: 'win'/'lose'; 'void'. */
  readonly result: string | readonly string[];
  readonly rounding: { readonly numerator: number; readonly denominator: number }[];
}

export interface LuxSettlement {
  readonly voided: boolean;
  readonly dealerCards: readonly CardCode[];
  readonly records: readonly LuxSettlementRecord[];
}
