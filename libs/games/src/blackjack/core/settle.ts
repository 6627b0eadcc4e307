import { CardCode } from '@studio/cards';
import { handTotal, isBlackjack } from './hand';
import { NO_ROUNDING, RoundingRecord, winningsFor } from './money';
import { PlayerHand } from './player-hands';
import { BlackjackRules, Ratio, Rounding } from './rules';

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

/**
 * How a closed hand settles, independent of the amount: what fraction of the stake is refunded
 * and, on a win, at which ratio it pays. Engines with many players sharing one hand compute this
 * once per hand and apply it to each stake with plain integer arithmetic.
 */
export interface HandSettlementRule {
  readonly outcome: HandOutcome;
  /** Fraction of the stake given back without a win (push 1/1, surrender 1/2, ...). */
  readonly refund: Ratio;
  /** Win ratio (stake back plus stake × a / b), or null when the hand does not win. */
  readonly pays: Ratio | null;
}

const NONE: Ratio = { a: 0, b: 1 };
const ALL: Ratio = { a: 1, b: 1 };
const HALF: Ratio = { a: 1, b: 2 };

export function handSettlementRule(
  hand: Pick<PlayerHand, 'cards' | 'fromSplit' | 'splitOff' | 'doubled' | 'surrendered'>,
  dealerCards: readonly CardCode[],
  rules: BlackjackRules,
): HandSettlementRule {
  const lose = (refund = NONE): HandSettlementRule => ({ outcome: 'lose', refund, pays: null });
  const playerBj = isBlackjack(hand.cards, hand.fromSplit);
  const dealerBj = isBlackjack(dealerCards);
  if (hand.surrendered) {
    // With peek, surrender only happens after the check, so dealerBj can only be true here with
    // no peek: late surrender then loses everything, early surrender still returns half.
    if (dealerBj && rules.surrender !== 'early') return lose();
    return { outcome: 'surrender', refund: HALF, pays: null };
  }
  if (dealerBj) {
    if (playerBj) return { outcome: 'push', refund: ALL, pays: null };
    if (!rules.peek && rules.noPeekDealerBlackjack === 'original-bets-only') {
      // Only the original bet is lost: doubles and the stakes of split-off hands come back.
      return lose(hand.splitOff ? ALL : hand.doubled ? HALF : NONE);
    }
    return lose();
  }
  const player = handTotal(hand.cards).total;
  if (player > 21) return { outcome: 'bust', refund: NONE, pays: null };
  if (playerBj) return { outcome: 'blackjack', refund: NONE, pays: rules.blackjackPays };
  const dealer = handTotal(dealerCards).total;
  if (dealer > 21 || player > dealer) return { outcome: 'win', refund: NONE, pays: rules.winPays };
  if (player === dealer) return { outcome: 'push', refund: ALL, pays: null };
  return lose();
}

/** Applies a settlement rule to one stake (integer minor units). */
export function applySettlementRule(
  rule: Pick<HandSettlementRule, 'refund' | 'pays'>,
  stake: number,
  rounding: Rounding,
): BetSettlement {
  if (rule.pays) {
    const w = winningsFor(stake, rule.pays, rounding);
    return betSettlement(stake, 0, stake + w.amount, w.rounding);
  }
  if (rule.refund.a === 0) return betSettlement(stake, 0, 0);
  const r = winningsFor(stake, rule.refund, rounding);
  return betSettlement(stake, r.amount, 0, r.rounding);
}

/** Result and payout of one closed player hand against the dealer's final cards (games.md §1). */
export function settleHand(
  hand: PlayerHand,
  dealerCards: readonly CardCode[],
  rules: BlackjackRules,
): HandSettlement {
  const rule = handSettlementRule(hand, dealerCards, rules);
  return { outcome: rule.outcome, ...applySettlementRule(rule, hand.stake, rules.rounding) };
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
