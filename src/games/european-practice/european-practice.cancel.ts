import { spotNumber } from '../spot-number';
import {
  AdapterResult,
  betCancelledEvent,
  CancelCommand,
  cancelledRow,
  rejection,
} from '../game-adapter';
import { practiceBetIdOf } from './european-practice.records';
import type { PracticeState } from './european-practice.state';

/** Remembers a cancelled seat bet: the same player does not bet on that seat again this round. */
const cancelKey = (seat: number, playerId: string) => `${seat}/${playerId}`;

/**
 * The practice table's cancel (its bets wait in the table's round state until betting closes,
 * then the European engine deals for them): a platform player's seat bet leaves the round while
 * betting is open, the seat is free again (a bot may fill it at the close).
 */
export function cancelPracticeBet(
  state: PracticeState,
  cancel: CancelCommand,
): AdapterResult<PracticeState> {
  if (state.phase !== 'betting') return rejection('betting-closed', 'Betting is closed');
  const seat = spotNumber(cancel.bet.spot ?? undefined);
  const bet = state.bets.find((b) => b.seat === seat && b.playerId === cancel.playerId && !b.bot);
  if (!bet) {
    return state.cancelled?.includes(cancelKey(seat, cancel.playerId))
      ? rejection('bet-already-cancelled', `The bet on seat ${seat} was cancelled before`)
      : rejection('unknown-bet', `${cancel.playerId} has no bet on seat ${seat}`);
  }
  const row = cancelledRow(
    cancel.playerId,
    practiceBetIdOf(state.roundId, cancel.playerId, seat),
    'main',
    String(seat),
    bet.stake,
  );
  return {
    state: {
      ...state,
      bets: state.bets.filter((b) => b !== bet),
      cancelled: [...(state.cancelled ?? []), cancelKey(seat, cancel.playerId)],
    },
    events: [betCancelledEvent(cancel, [row])],
    cancellations: [row],
  };
}

/** Whether this player's bet on this seat was cancelled this round (it is not placed again). */
export function wasCancelled(state: PracticeState, seat: number, playerId: string): boolean {
  return state.cancelled?.includes(cancelKey(seat, playerId)) ?? false;
}
