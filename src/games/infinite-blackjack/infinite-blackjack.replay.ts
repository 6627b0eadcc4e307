import type { GameAdapter } from '../game-adapter';
import {
  ok,
  ReplayedRound,
  startReplay,
  StoredDecision,
  StoredRound,
  windowOf,
} from '../replay-kit';

/**
 * Infinite Blackjack: one main bet per player with its side bets; after each card the decision
 * windows are played out: the stored decisions the engine takes, then the window's timer (auto-play
 * for whoever stayed silent), and an insurance window closes by its timer.
 */
export function replayInfinite(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = startReplay(adapter, round);
  const byPlayer = new Map<
    string,
    { main: number; side: Record<string, number>; currency?: string }
  >();
  for (const b of round.bets) {
    const entry = byPlayer.get(b.playerId) ?? { main: 0, side: {}, currency: b.currency };
    if (b.betType === 'main') entry.main = b.amount;
    else entry.side[b.betType] = b.amount;
    byPlayer.set(b.playerId, entry);
  }
  for (const [playerId, bet] of byPlayer) {
    rec.apply(
      adapter.placeBet(
        rec.state,
        {
          betId: playerId,
          playerId,
          betType: 'main',
          amount: bet.main,
          sideBets: bet.side,
          ...(bet.currency ? { currency: bet.currency } : {}),
        },
        round.roundNumber,
      ),
      `bet ${playerId}`,
    );
  }
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  const pending = [...round.decisions];
  for (const c of round.cards) {
    rec.apply(adapter.card(rec.state, c.card), `card ${c.slot} ${c.card}`);
    for (let guard = 0; guard < 20; guard += 1) {
      const phase = adapter.phase(rec.state);
      if (phase !== 'insurance' && phase !== 'deciding') break;
      const window = windowOf(rec.state);
      // A stored decision was accepted at the table: the engine refusing it here is a mismatch.
      for (const next of takeWindow(pending, window, phase)) {
        const step = `decision ${next.playerId} ${next.action}`;
        rec.state = ok(adapter.decide(rec.state, next), step).state;
      }
      const timer = phase === 'insurance' ? 'insurance' : 'decision';
      const r = adapter.timerFired(rec.state, timer, window);
      if ('rejected' in r) break;
      rec.apply(r, `${timer} timer`);
    }
  }
  return rec.result(adapter);
}

/**
 * Takes from the front of `pending` the decisions of the open window (insurance windows are
 * numbered like the others). Rounds stored before decisions recorded their window: one decision
 * per player is taken in a decision window (a player's next one is taken as belonging to a later
 * window), none in an insurance window.
 */
function takeWindow(pending: StoredDecision[], window: number, phase: string): StoredDecision[] {
  const taken: StoredDecision[] = [];
  const players = new Set<string>();
  while (pending.length > 0) {
    const next = pending[0];
    const recorded = next.window ?? null;
    const belongs =
      recorded !== null ? recorded === window : phase === 'deciding' && !players.has(next.playerId);
    if (!belongs) break;
    players.add(next.playerId);
    taken.push(pending.shift()!);
  }
  return taken;
}
