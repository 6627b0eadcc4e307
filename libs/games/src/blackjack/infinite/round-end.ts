import { CardCode } from '@studio/cards';
import { dealerMustHit, revealHoleCard } from '../core/dealer';
import { event, reject } from '../core/engine';
import { handTotal, isBlackjack } from '../core/hand';
import { infiniteDealerCards, prompt } from './expected-card';
import { settleInfiniteRound } from './settlement';
import { InfiniteState } from './state';
import { continueAfter, InfiniteStep } from './step';
import { infiniteNodePath } from './table';

// ---- the dealer's turn, settlement and void ------------------------------------------------------

/**
 * The dealer reveals and draws while some hand can still be beaten or paid differently (a live
 * hand that is not bust, surrendered or BJ) or a Bust Bonus bet depends on the dealer's cards.
 */
export function dealerTurn(state: InfiniteState): InfiniteStep {
  const revealed = revealHoleCard(state);
  const next: InfiniteState = { ...revealed.state, phase: 'dealer' };
  return continueAfter(dealerNext(next), revealed.effects);
}

function dealerNext(state: InfiniteState): InfiniteStep {
  const cards = infiniteDealerCards(state);
  const needed =
    !isBlackjack(cards) &&
    dealerMustHit(cards, state.config.rules) &&
    (state.sideTotals['bust-bonus'] > 0 || anyLiveHand(state));
  if (needed) return { state, effects: [prompt(state)] };
  return settle(state);
}

function anyLiveHand(state: InfiniteState): boolean {
  return state.nodes.some(
    (node) =>
      node.players > 0 &&
      node.hands.some(
        (h) =>
          !h.surrendered && handTotal(h.cards).total <= 21 && !isBlackjack(h.cards, h.fromSplit),
      ),
  );
}

export function drawDealer(state: InfiniteState, card: CardCode): InfiniteStep {
  const next: InfiniteState = {
    ...state,
    dealer: { ...state.dealer, draws: [...state.dealer.draws, card] },
  };
  return continueAfter(dealerNext(next), [
    event('dealer-card-drawn', { card, dealerTotal: handTotal(infiniteDealerCards(next)).total }),
  ]);
}

export function settle(state: InfiniteState): InfiniteStep {
  const summary = settleInfiniteRound(state);
  const next: InfiniteState = { ...state, phase: 'settled', settlement: summary };
  return {
    state: next,
    effects: [
      event('round-settled', {
        roundId: state.roundId,
        dealerCards: summary.dealerCards,
        side: summary.side,
        insuranceWins: summary.insuranceWins,
        nodes: summary.nodeRules
          .map((rules, id) =>
            rules ? { node: id, path: infiniteNodePath(state, id), hands: rules } : null,
          )
          .filter((x) => x !== null),
        totals: summary.totals,
      }),
    ],
  };
}

/** A voided round has no winners and no losers: every bet is refunded. */
export function voidRound(state: InfiniteState, reason: string): InfiniteStep {
  if (['idle', 'settled', 'voided'].includes(state.phase)) {
    return reject('round-over', 'there is no round in progress to void');
  }
  const voided: InfiniteState = { ...state, phase: 'voided', voidReason: reason };
  const summary = settleInfiniteRound(voided);
  return {
    state: { ...voided, settlement: summary },
    effects: [event('round-voided', { roundId: state.roundId, reason, totals: summary.totals })],
  };
}
