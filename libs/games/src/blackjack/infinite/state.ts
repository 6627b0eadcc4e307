import { CardCode } from '@studio/cards';
import { PlayerHand } from '../core/player-hands';
import { BlackjackRules, Ratio, rulesFor } from '../core/rules';
import { HandSettlementRule } from '../core/settle';
import { SIDE_BET_LAST_ROUND, SideBetKind } from '../side-bets/side-bets';

/** The side bets of Infinite Blackjack (games.md §2). */
export const INFINITE_SIDE_BETS = ['pairs', 'bust-bonus', 'lucky-trio', 'poker-trio'] as const;
export type InfiniteSideBet = (typeof INFINITE_SIDE_BETS)[number];

/** Every bet a player can hold in a round, in the order settlement records list them. */
export const INFINITE_BETS = ['main', 'insurance', ...INFINITE_SIDE_BETS] as const;
export type InfiniteBet = (typeof INFINITE_BETS)[number];

export type InfiniteDealSlot = 'player' | 'dealer-up' | 'dealer-hole';

export interface BetLimits {
  readonly min: number;
  readonly max: number;
}

export interface InfiniteConfig {
  readonly rules: BlackjackRules;
  readonly bettingWindowMs: number;
  readonly decisionWindowMs: number;
  readonly insuranceWindowMs: number;
  /** Initial deal order (Default: player, dealer up, player, dealer hole). */
  readonly dealOrder: readonly InfiniteDealSlot[];
  readonly sideBetLastRound: Readonly<Partial<Record<SideBetKind, number>>>;
  readonly mainBet: BetLimits;
  readonly sideBet: BetLimits;
}

export const DEFAULT_INFINITE_CONFIG: InfiniteConfig = {
  rules: rulesFor('infinite'),
  bettingWindowMs: 15_000,
  decisionWindowMs: 10_000,
  insuranceWindowMs: 10_000,
  dealOrder: ['player', 'dealer-up', 'player', 'dealer-hole'],
  sideBetLastRound: SIDE_BET_LAST_ROUND,
  // Table limits come from the table's configuration; these only refuse nonsense.
  mainBet: { min: 1, max: 100_000_000 },
  sideBet: { min: 1, max: 10_000_000 },
};

export type InfinitePhase =
  | 'idle'
  | 'betting'
  | 'dealing'
  | 'insurance'
  | 'deciding'
  | 'drawing'
  | 'dealer'
  | 'settled'
  | 'voided';

/**
 * One node of the decision trie. Every player who made the same decisions in the same windows
 * holds the same hand(s), because the cards are shared; the node holds them once. Stakes in the
 * node's hands are in units of the player's main bet (1, or 2 after a double).
 */
export interface DecisionNode {
  readonly parent: number;
  readonly action: string | null;
  readonly hands: readonly PlayerHand[];
  /** Child node per action code (index into PLAYER_ACTIONS), -1 when none yet. */
  readonly children: readonly number[];
  /** Players currently at this node. */
  readonly players: number;
}

/**
 * Per-player data, one column per field (plain arrays: compact, JSON-serialisable, and a whole
 * window's decisions are applied with one pass over a few number arrays).
 */
export interface InfinitePlayerColumns {
  readonly ids: readonly string[];
  readonly main: readonly number[];
  /** Insurance stake taken (0: none). */
  readonly insurance: readonly number[];
  readonly side: Readonly<Record<InfiniteSideBet, readonly number[]>>;
  /** The decision-trie node each player is at. */
  readonly node: readonly number[];
  /** The decision sent in the open window (action code, insurance 1/0), -1 for none. */
  readonly pending: readonly number[];
}

export type SideBetResult = { pattern: string; pays: Ratio } | null;

export interface InfiniteSettlementSummary {
  readonly voided: boolean;
  readonly dealerCards: readonly CardCode[];
  /** Per node (index = node id): how each of its hands settles; null for nodes with no players. */
  readonly nodeRules: readonly (readonly HandSettlementRule[] | null)[];
  readonly insuranceWins: boolean;
  readonly side: Readonly<Record<InfiniteSideBet, SideBetResult>>;
  readonly totals: Readonly<Record<InfiniteBet, BetTotals>>;
}

export interface BetTotals {
  readonly players: number;
  readonly staked: number;
  readonly refunded: number;
  readonly paid: number;
  readonly houseResult: number;
  /** Σ (exact − paid) over every player, in minor units: numerator / denominator. */
  readonly rounding: { readonly numerator: number; readonly denominator: number };
}

export interface InfiniteState {
  readonly game: 'infinite-blackjack';
  readonly config: InfiniteConfig;
  readonly phase: InfinitePhase;
  readonly roundId: string | null;
  readonly roundOfShoe: number;
  /** Counts betting, insurance and decision windows of the round; timers echo it back. */
  readonly window: number;
  /** Initial-deal slots already filled. */
  readonly dealt: number;
  readonly playerCards: readonly CardCode[];
  readonly dealer: {
    readonly up: CardCode | null;
    /** Face down until `holeRevealed`; never in a player view or public event before that. */
    readonly hole: CardCode | null;
    readonly holeRevealed: boolean;
    readonly draws: readonly CardCode[];
  };
  readonly peeked: boolean;
  /** The common card sequence drawn for the players after the initial deal. */
  readonly commonDraws: readonly CardCode[];
  /** How often each card code came out this round (an 8-deck shoe holds 8 of each). */
  readonly cardCounts: Readonly<Record<string, number>>;
  readonly players: InfinitePlayerColumns;
  /** Players whose bet was cancelled this round (they do not bet again in it). */
  readonly cancelled?: readonly string[];
  readonly nodes: readonly DecisionNode[];
  /** Total stake per side bet kind this round (Bust Bonus decides whether the dealer draws). */
  readonly sideTotals: Readonly<Record<InfiniteSideBet, number>>;
  readonly settlement: InfiniteSettlementSummary | null;
  readonly voidReason: string | null;
}
