import { reject } from '../core/engine';
import {
  behindBet,
  closeBetting,
  leaveSeat,
  openBetting,
  seatBet,
  seatBetFailed,
  takeSeat,
} from './betting';
import { cancelLuxBet } from './cancel';
import { applyCard, closeWindow, decision, followChoice, insurance, preDecision } from './play';
import { voidRound } from './round-end';
import { LuxState } from './state';
import { LuxInput, LuxStep } from './step';

/**
 * Blackjack Lux (games.md §3): seats 1–7 called in order, bet behind with its own insurance and
 * follow-double / follow-split choices, pre-decisions, early end on a dealer BJ or when every
 * seated player has BJ. Seat rules (who may sit, removals, one round of grace) are pure too; the
 * commands a platform sends (a bet on a seat, a decision naming or not naming its seat) become
 * engine inputs in seat-commands.ts.
 */

export type { LuxAccount, LuxEffect, LuxInput, LuxSeatBetRefusal, LuxStep } from './step';
export {
  luxSeatEligibility,
  luxSeatsOutOfGrace,
  luxSeatsShortOfBalance,
  luxSeatVerdict,
  newLuxTable,
} from './seats';
export type { LuxSeatVerdict } from './seats';
export { luxCancelKey } from './cancel';
export type { LuxCancelledBet } from './cancel';
export { currentSeat, luxDealerCards, luxExpectedCard } from './expected-card';
export type { LuxExpectedCard } from './expected-card';

// ---- step ----------------------------------------------------------------------------------------

export function stepLux(state: LuxState, input: LuxInput): LuxStep {
  switch (input.type) {
    case 'open-betting':
      return openBetting(state, input.roundId, input.roundOfShoe, input.balances ?? {});
    case 'take-seat':
      return takeSeat(state, input.seat, input.account);
    case 'leave-seat':
      return leaveSeat(state, input.seat, input.playerId);
    case 'seat-bet':
      return seatBet(
        state,
        input.seat,
        input.playerId,
        input.main,
        input.pairs ?? 0,
        input.currency,
      );
    case 'behind-bet':
      return behindBet(
        state,
        input.seat,
        input.playerId,
        input.main,
        input.pairs ?? 0,
        input.currency,
      );
    case 'seat-bet-failed':
      return seatBetFailed(state, input.seat, input.playerId, input.reason ?? 'failed');
    case 'cancel-bet':
      return cancelLuxBet(state, input.seat, input.playerId, input.betType);
    case 'close-betting':
      return closeBetting(state);
    case 'card':
      return applyCard(state, input.card);
    case 'insurance':
      return insurance(state, input.seat, input.playerId, input.take);
    case 'pre-decision':
      return preDecision(state, input.seat, input.playerId, input.action);
    case 'follow-choice':
      return followChoice(state, input);
    case 'decision':
      return decision(state, input.seat, input.playerId, input.action);
    case 'close-window':
      return closeWindow(state);
    case 'timeout':
      if (input.window !== state.window) {
        return reject('wrong-phase', `stale ${input.timer} timer (window ${input.window})`);
      }
      return closeWindow(state);
    case 'void':
      return voidRound(state, input.reason);
  }
}
