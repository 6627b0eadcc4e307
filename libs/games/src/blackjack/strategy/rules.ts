import { BlackjackRules } from '../core/rules';

/**
 * The rule options that change blackjack strategy and return. One record describes a variant for
 * the EV generator and the verification simulator; the published RTP figures of games 1 and 2 are
 * checked by moving exactly these options (games.md section 1, "Player actions").
 */
export interface StrategyRules {
  /** Number of 52-card decks in the shoe. */
  readonly decks: number;
  /** games.md section 1: the dealer stands on soft 17 in every game here. */
  readonly dealerHitsSoft17: boolean;
  /**
   * 'peek': the dealer checks for BJ under an ace or ten and the round ends at once (games 1, 2).
   * 'no-peek': European practice, the hidden card is revealed after the players (game 3).
   */
  readonly holeCard: 'peek' | 'no-peek';
  /** No-peek only: what a dealer BJ takes from a hand that doubled or split. */
  readonly noPeekLoss: 'all-stakes' | 'original-bets-only';
  /** Whether a hand created by a split may double on its first two cards. */
  readonly doubleAfterSplit: boolean;
  /** Maximum hands per player after splits (1 = no split, 2 = split once, 4 = re-split to 4). */
  readonly maxHands: number;
  /** 'late': after the dealer's BJ check; 'early': before it (the BJ then takes only half). */
  readonly surrender: 'none' | 'late' | 'early';
  /** Blackjack pays 3:2 in all games here; kept as a number for the option table. */
  readonly blackjackPays: number;
}

/** A short, stable label for tables and file names: `6d-s17-nopeek-all-das-4h-nosur`. */
export function rulesLabel(rules: StrategyRules): string {
  return [
    `${rules.decks}d`,
    rules.dealerHitsSoft17 ? 'h17' : 's17',
    rules.holeCard === 'peek'
      ? 'peek'
      : `nopeek-${rules.noPeekLoss === 'all-stakes' ? 'all' : 'obo'}`,
    rules.doubleAfterSplit ? 'das' : 'nodas',
    `${rules.maxHands}h`,
    rules.surrender === 'none' ? 'nosur' : `${rules.surrender}sur`,
  ].join('-');
}

/** The strategy-relevant options of an engine rules table (libs/games blackjack core). */
export function strategyRulesOf(rules: BlackjackRules): StrategyRules {
  return {
    decks: rules.decks,
    dealerHitsSoft17: rules.dealerHitsSoft17,
    holeCard: rules.peek ? 'peek' : 'no-peek',
    noPeekLoss: rules.noPeekDealerBlackjack === 'all-bets' ? 'all-stakes' : 'original-bets-only',
    doubleAfterSplit: rules.doubleAfterSplit,
    maxHands: rules.maxHands,
    surrender: rules.surrender,
    blackjackPays: rules.blackjackPays.a / rules.blackjackPays.b,
  };
}
