import { BurnValues, POK_DENG_BURN_VALUES } from '../shoe/burn-values';
import { ShoeRules } from '../shoe/shoe';

/** Payout notation `a:b`: the winner gets the stake back plus stake × a / b. */
export interface PayoutRatio {
  readonly a: number;
  readonly b: number;
}

export interface BetLimits {
  /** Minor units, inclusive. */
  readonly min: number;
  readonly max: number;
}

/** The per-table rules of Pok Deng; defaults in POK_DENG_RULES quote games.md section 5. */
export interface PokDengRules {
  readonly deckCount: number;
  readonly burnValues: BurnValues;
  /** Player hands dealt each round (Player 1 … Player N); the banker is dealt last. */
  readonly playerHandCount: number;
  /** Extra amount deducted with a Player N bet, as a multiple of the bet (the deposit). */
  readonly depositMultiple: number;
  readonly payouts: {
    /** Player N wins without a special pattern, or by the banker-0-or-6 exception. */
    readonly playerWin: PayoutRatio;
    /** Player N wins with a special pattern. */
    readonly playerWinSpecialPattern: PayoutRatio;
    /** Banker wins: the bet is lost (ratio of the stake lost; the rest of the deduction is returned). */
    readonly bankerWin: PayoutRatio;
    /** Banker wins with a special pattern: bet and deposit lost. */
    readonly bankerWinSpecialPattern: PayoutRatio;
    /** Player N Pair bet wins. */
    readonly pair: PayoutRatio;
  };
  /**
   * Banker *scores* (points without a special combination) against which a special-pattern win
   * of Player N pays playerWin instead: 0 and 6.
   */
  readonly specialWinReducedAgainstBankerPoints: readonly number[];
  /** Player points that keep the special-pattern payout against those bankers, with a flush or pair. */
  readonly fullPayWithFlushOrPairPoints: readonly number[];
  /** Optional table limits per bet kind; the orchestrator may also enforce its own. */
  readonly limits?: { readonly player?: BetLimits; readonly pair?: BetLimits };
  /**
   * Optional table limits per currency then bet kind: a bet that names its currency is held to
   * that currency's (a table of several currencies), else to `limits`.
   */
  readonly limitsByCurrency?: Readonly<
    Record<string, { readonly player?: BetLimits; readonly pair?: BetLimits }>
  >;
}

export const POK_DENG_RULES: PokDengRules = {
  deckCount: 8,
  burnValues: POK_DENG_BURN_VALUES,
  playerHandCount: 5,
  depositMultiple: 1,
  payouts: {
    playerWin: { a: 1, b: 1 },
    playerWinSpecialPattern: { a: 2, b: 1 },
    bankerWin: { a: 1, b: 1 },
    bankerWinSpecialPattern: { a: 2, b: 1 },
    pair: { a: 11, b: 1 },
  },
  specialWinReducedAgainstBankerPoints: [0, 6],
  fullPayWithFlushOrPairPoints: [8, 9],
};

/** The shoe rules of a Pok Deng table (no side bet has a round limit). */
export function pokDengShoeRules(rules: PokDengRules): ShoeRules {
  return { deckCount: rules.deckCount, burnValues: rules.burnValues, sideBetLastRound: {} };
}
