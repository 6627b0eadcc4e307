import { CardCode } from '@studio/cards';
import { handTotal, isBlackjack } from './hand';
import { NO_ROUNDING, RoundingRecord, winningsFor } from './money';
import { PlayerHand } from './player-hands';
import { BlackjackRules } from './rules';

export type HandOutcome = 'blackjack' | 'win' | 'push' | 'lose' | 'bust' | 'surrender';

/**
 * One bet's settlement. Money is conserved per bet: staked = refunded + paid + houseResult, where
 * houseResult is negative when the house paid out more than it took.
 */
export interface BetSettlement {
  readonly staked: number;
  /** Stake given back without a win: a push, half on surrender, the refunded part of a no-peek loss. */
  readonly refunded: number;
  /** Stake plus winnings on a win; 0 otherwise. */
  readonly paid: number;
  readonly houseResult: number;
  readonly rounding: RoundingRecord;
}

export interface HandSettlement extends BetSettlement {
  readonly outcome: HandOutcome;
}

export function betSettlement(
  staked: number,
  refunded: number,
  paid: number,
  rounding: RoundingRecord = NO_ROUNDING,
): BetSettlement {
  return { staked, refunded, paid, houseResult: staked - refunded - paid, rounding };
}

function win(stake: number, outcome: HandOutcome, rules: BlackjackRules): HandSettlement {
  const w = winningsFor(
    stake,
    outcome === 'blackjack' ? rules.blackjackPays : rules.winPays,
    rules.rounding,
  );
  return { outcome, ...betSettlement(stake, 0, stake + w.amount, w.rounding) };
}

/** Result and payout of one closed player hand against the dealer's final cards (games.md §1). */
export function settleHand(
  hand: PlayerHand,
  dealerCards: readonly CardCode[],
  rules: BlackjackRules,
): HandSettlement {
  const stake = hand.stake;
  const playerBj = isBlackjack(hand.cards, hand.fromSplit);
  const dealerBj = isBlackjack(dealerCards);
  if (hand.surrendered) {
    // With peek, surrender only happens after the check, so dealerBj cannot be true here unless
    // there is no peek: late surrender then loses everything, early surrender still returns half.
    if (dealerBj && rules.surrender !== 'early') {
      return { outcome: 'lose', ...betSettlement(stake, 0, 0) };
    }
    const half = winningsFor(stake, { a: 1, b: 2 }, rules.rounding);
    return { outcome: 'surrender', ...betSettlement(stake, half.amount, 0, half.rounding) };
  }
  if (dealerBj) {
    if (playerBj) return { outcome: 'push', ...betSettlement(stake, stake, 0) };
    if (!rules.peek && rules.noPeekDealerBlackjack === 'original-bets-only') {
      // Only the original bet is lost: doubles and the stakes of split-off hands come back.
      const original = hand.splitOff ? 0 : hand.doubled ? stake / 2 : stake;
      return { outcome: 'lose', ...betSettlement(stake, stake - original, 0) };
    }
    return { outcome: 'lose', ...betSettlement(stake, 0, 0) };
  }
  const player = handTotal(hand.cards).total;
  if (player > 21) return { outcome: 'bust', ...betSettlement(stake, 0, 0) };
  if (playerBj) return win(stake, 'blackjack', rules);
  const dealer = handTotal(dealerCards).total;
  if (dealer > 21 || player > dealer) return win(stake, 'win', rules);
  if (player === dealer) return { outcome: 'push', ...betSettlement(stake, stake, 0) };
  return { outcome: 'lose', ...betSettlement(stake, 0, 0) };
}

/** Insurance pays 2:1 when the dealer has BJ, otherwise it is lost. */
export function settleInsurance(
  insuranceStake: number,
  dealerCards: readonly CardCode[],
  rules: BlackjackRules,
): BetSettlement {
  if (!isBlackjack(dealerCards)) return betSettlement(insuranceStake, 0, 0);
  const w = winningsFor(insuranceStake, rules.insurancePays, rules.rounding);
  return betSettlement(insuranceStake, 0, insuranceStake + w.amount, w.rounding);
}
