import { dealerMustHit, revealHoleCard } from '../core/dealer';
import { handTotal, isBlackjack } from '../core/hand';
import { event, reject } from '../core/engine';
import { luxDealerCards, prompt } from './expected-card';
import { roundOver } from './seats';
import { settleLux } from './settlement';
import { LuxState } from './state';
import { continueAfter, LuxSettledStep, LuxStep } from './step';

export function endRound(state: LuxState): LuxSettledStep {
  const revealed = revealHoleCard(state);
  return continueAfter(settle(revealed.state), revealed.effects) as LuxSettledStep;
}
// ---- dealer and settlement -----------------------------------------------------------------------

export function dealerTurn(state: LuxState): LuxStep {
  const revealed = revealHoleCard<LuxState>({ ...state, phase: 'dealer' });
  return continueAfter(dealerNext(revealed.state), revealed.effects);
}

export function dealerNext(state: LuxState): LuxStep {
  const cards = luxDealerCards(state);
  const live = state.seats.some(
    (s) =>
      s.active &&
      s.hands.some(
        (h) =>
          !h.surrendered && handTotal(h.cards).total <= 21 && !isBlackjack(h.cards, h.fromSplit),
      ),
  );
  if (live && !isBlackjack(cards) && dealerMustHit(cards, state.config.rules)) {
    return { state, effects: [prompt(state)] };
  }
  return settle(state);
}

function settle(state: LuxState): LuxSettledStep {
  const settlement = settleLux(state);
  const next: LuxState = { ...state, phase: 'settled', settlement };
  return {
    state: next,
    effects: [
      event('round-settled', {
        roundId: state.roundId,
        earlyEnd: state.earlyEnd,
        dealerCards: settlement.dealerCards,
        records: settlement.records,
      }),
    ],
  };
}

export function voidRound(state: LuxState, reason: string): LuxStep {
  if (roundOver(state)) return reject('round-over', 'there is no round in progress to void');
  const voided: LuxState = { ...state, phase: 'voided', voidReason: reason };
  const settlement = settleLux(voided);
  return {
    state: { ...voided, settlement },
    effects: [
      event('round-voided', { roundId: state.roundId, reason, records: settlement.records }),
    ],
  };
}
