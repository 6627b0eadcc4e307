import { HandEvaluation } from './hand';
import { PayoutRatio, PokDengRules } from './rules';

export type PlayerBetOutcome =
  /** Player N wins without a special pattern: 1:1. */
  | 'player-wins'
  /** Player N wins with a special pattern: 2:1. */
  | 'player-wins-special-pattern'
  /** Player N wins with a special pattern but the banker has 0 or 6 points: 1:1. */
  | 'player-wins-special-pattern-banker-0-or-6'
  /** Player N wins against a banker 0 or 6 with 8 or 9 points and a flush or a pair: still 2:1. */
  | 'player-wins-8-or-9-flush-or-pair-against-0-or-6'
  | 'tie'
  /** Banker wins without a special pattern: the bet is lost, the deposit returned. */
  | 'banker-wins'
  /** Banker wins with a special pattern: bet and deposit lost. */
  | 'banker-wins-special-pattern';

export type PairBetOutcome = 'pair-wins' | 'pair-loses';

export type BetOutcome = PlayerBetOutcome | PairBetOutcome | 'void-refund';

/** What one bet did to the player's balance, in integer minor units. */
export interface MoneyMovement {
  /** Taken from the balance when the bet was placed (bet, plus the deposit for Player N). */
  readonly deducted: number;
  /** Given back to the balance at settlement. */
  readonly returned: number;
  /** returned − deducted: the player's gain (negative: the house's gain). */
  readonly net: number;
  /** The ratio applied, `a:b`, won (positive outcomes) or lost (banker wins); null for ties and refunds. */
  readonly ratio: string | null;
  /**
   * Fractional minor units dropped by rounding the payout down, as `numerator/denominator` of one
   * minor unit (0 when the payout was exact). Pok Deng ratios are whole, but the rule is general.
   */
  readonly roundedDown: { readonly numerator: number; readonly denominator: number };
}

export interface PlayerBetSettlement extends MoneyMovement {
  readonly outcome: PlayerBetOutcome;
}
export interface PairBetSettlement extends MoneyMovement {
  readonly outcome: PairBetOutcome;
}

const EXACT = { numerator: 0, denominator: 1 } as const;

/** stake × a / b, rounded down to the minor unit, with what the rounding dropped. */
export function applyRatio(
  stake: number,
  ratio: PayoutRatio,
): { amount: number; roundedDown: MoneyMovement['roundedDown'] } {
  const scaled = stake * ratio.a;
  const remainder = scaled % ratio.b;
  return {
    amount: (scaled - remainder) / ratio.b,
    roundedDown: remainder === 0 ? EXACT : { numerator: remainder, denominator: ratio.b },
  };
}

const formatRatio = (r: PayoutRatio): string => `${r.a}:${r.b}`;

/** The amount a Player N bet deducts from the balance: the bet plus the deposit. */
export function playerBetDeduction(rules: PokDengRules, stake: number): number {
  return stake * (1 + rules.depositMultiple);
}

/** Classifies Player N against the Banker (games.md section 5), without money. */
export function playerBetOutcome(
  rules: PokDengRules,
  player: HandEvaluation,
  banker: HandEvaluation,
): PlayerBetOutcome {
  if (player.score === banker.score) return 'tie';
  if (player.score < banker.score) {
    return banker.specialPattern ? 'banker-wins-special-pattern' : 'banker-wins';
  }
  if (!player.specialPattern) return 'player-wins';
  // "Banker has 0 or 6 points": a banker holding a special combination scores 7.1-7.5, not 0.
  const bankerZeroOrSix =
    banker.combination === null &&
    rules.specialWinReducedAgainstBankerPoints.includes(banker.points);
  if (!bankerZeroOrSix) return 'player-wins-special-pattern';
  const keepsFullPay =
    player.combination === null &&
    rules.fullPayWithFlushOrPairPoints.includes(player.points) &&
    (player.flush || player.pair);
  return keepsFullPay
    ? 'player-wins-8-or-9-flush-or-pair-against-0-or-6'
    : 'player-wins-special-pattern-banker-0-or-6';
}

export function settlePlayerBet(
  rules: PokDengRules,
  stake: number,
  player: HandEvaluation,
  banker: HandEvaluation,
): PlayerBetSettlement {
  const outcome = playerBetOutcome(rules, player, banker);
  const deducted = playerBetDeduction(rules, stake);
  const { payouts } = rules;
  let ratio: PayoutRatio | null;
  let returned: number;
  let roundedDown: MoneyMovement['roundedDown'] = EXACT;
  switch (outcome) {
    case 'tie':
      ratio = null;
      returned = deducted;
      break;
    case 'banker-wins':
    case 'banker-wins-special-pattern': {
      ratio = outcome === 'banker-wins' ? payouts.bankerWin : payouts.bankerWinSpecialPattern;
      const loss = applyRatio(stake, ratio);
      // A loss can never take more than was deducted, whatever the configured ratio.
      returned = deducted - Math.min(deducted, loss.amount);
      roundedDown = loss.roundedDown;
      break;
    }
    default: {
      ratio =
        outcome === 'player-wins' || outcome === 'player-wins-special-pattern-banker-0-or-6'
          ? payouts.playerWin
          : payouts.playerWinSpecialPattern;
      const win = applyRatio(stake, ratio);
      returned = deducted + win.amount;
      roundedDown = win.roundedDown;
    }
  }
  return {
    outcome,
    deducted,
    returned,
    net: returned - deducted,
    ratio: ratio && formatRatio(ratio),
    roundedDown,
  };
}

/** Player N Pair: wins 11:1 when Player N's two cards have the same rank; no deposit. */
export function settlePairBet(
  rules: PokDengRules,
  stake: number,
  player: HandEvaluation,
): PairBetSettlement {
  if (!player.pair) {
    return {
      outcome: 'pair-loses',
      deducted: stake,
      returned: 0,
      net: -stake,
      ratio: null,
      roundedDown: EXACT,
    };
  }
  const win = applyRatio(stake, rules.payouts.pair);
  return {
    outcome: 'pair-wins',
    deducted: stake,
    returned: stake + win.amount,
    net: win.amount,
    ratio: formatRatio(rules.payouts.pair),
    roundedDown: win.roundedDown,
  };
}
