import type { GameKind } from '@studio/contracts';
import type { GameAdapter } from './game-adapter';
import type { ReplayedRound, StoredRound } from './replay-kit';

export interface BetLimitRange {
  min: number;
  max: number;
}

/** What a game's adapter needs from a table's configured settings. */
export interface GameTableSettings {
  bettingWindowMs: number;
  decisionWindowMs: number;
  /** Table limits by bet type, in minor units (the table's default currency). */
  limits: Record<string, BetLimitRange>;
  /** Table limits per currency, then bet type (absent: `limits`, in one currency). */
  limitsByCurrency?: Record<string, Record<string, BetLimitRange>>;
  /** Game-specific rule overrides. */
  rules: Record<string, unknown>;
}

/**
 * Everything the service knows about one game, in one place (`src/games/<game>/<game>.game.ts`):
 * how to build its adapter for a table, how to replay a stored round, and which bets it takes.
 */
export interface GameDefinition {
  readonly game: GameKind;
  /** The bet types the game takes, each with its default limits in minor units. */
  readonly defaultLimits: Readonly<Record<string, BetLimitRange>>;
  /**
   * The rules a table's `rules` may override, at their defaults: each override must have its
   * default's shape (checked at start-up, src/games/rule-overrides.ts).
   */
  readonly ruleDefaults: Readonly<Record<string, unknown>>;
  /** Further rules the adapter reads and checks itself (e.g. the practice table's bots). */
  readonly ruleExtras?: readonly string[];
  createAdapter(settings: GameTableSettings): GameAdapter;
  /** Recomputes a stored round; throws ReplayRefused at the first step the engine refuses. */
  replay(adapter: GameAdapter, round: StoredRound): ReplayedRound;
  /** The engine makes decisions itself (bots, auto-play): the replay compares them too. */
  readonly comparesEngineDecisions?: boolean;
  /**
   * The chain accepts each decision row as it is stored (DecisionAccepted / DecisionsAccepted):
   * replay compares the rows with it. Other games' chains record seats, pre-decisions, auto-play.
   */
  readonly chainsDecisionRows?: boolean;
  /**
   * The face-down slots a void turns over (the adapter's voidRound `reveals`) with no reveal
   * event of their own: their reveal time is the void's. None unless the game says so.
   */
  readonly voidTurnsOver?: readonly string[];
  /**
   * Its player hands are played by many players at once (Infinite Blackjack's common hand): a
   * hand's owner counts them and names none, so every platform may see it.
   */
  readonly sharedPlayerHands?: boolean;
}
