import { startRound } from './lifecycle';
import { ROUND_TIMER, Transition } from './transition';

/** A deadline passed: the next round starts, or the game's own timer (betting window...) fires. */
export function timer(tx: Transition, name: string, token: number): void {
  const pending = tx.state.timers.find((t) => t.name === name && t.token === token);
  if (!pending || tx.paused) return; // stale or paused: nothing to do
  tx.state = { ...tx.state, timers: tx.state.timers.filter((t) => t !== pending) };
  const phase = tx.state.phase;
  switch (phase.kind) {
    case 'between-rounds':
      if (name === ROUND_TIMER && tx.state.shoe?.state.phase === 'between-rounds') startRound(tx);
      return;
    case 'in-round':
      if (name !== ROUND_TIMER) {
        tx.applyRound(tx.adapter.timerFired(phase.round.engine, name, token));
      }
      return;
    default:
      return;
  }
}
