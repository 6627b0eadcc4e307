import { botDecision } from '../bots/bots';
import { isRejected } from '../core/engine';
import { botView, isRejection, seatToAct } from './engine';
import { EuropeanEffect, EuropeanState } from './state';
import { stepEuropean } from './shoe-driver';

/**
 * Lets the bots take their turns: while the seat to act holds a bot, the bot decides from its
 * view (never from the state) and the decision goes through the engine like a player's would.
 * Stops when a human seat must act or the round is over.
 */
export function playBotTurns(state: EuropeanState): {
  state: EuropeanState;
  effects: EuropeanEffect[];
} {
  const effects: EuropeanEffect[] = [];
  for (let seat = seatToAct(state); seat !== null; seat = seatToAct(state)) {
    const occupant = state.round!.seats[state.round!.turn].occupant;
    if (occupant.kind !== 'bot') break;
    const view = botView(state, seat);
    if (isRejection(view)) break;
    const step = stepEuropean(state, {
      type: 'decide',
      seat,
      action: botDecision(occupant.difficulty, view),
    });
    if (isRejected(step))
      throw new Error(`a bot chose an illegal action: ${step.rejected.message}`);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}
