import type { GameAdapter } from '../game-adapter';
import { ReplayedRound, startReplay, StoredRound, windowOf } from '../replay-kit';

/**
 * Infinite Blackjack: one main bet per player with its side bets; after each card the decision
 * windows are played out: the stored decisions the engine takes, then the window's timer (auto-play
 * for whoever stayed silent), and an insurance window closes by its timer.
 */
export function replayInfinite(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = startReplay(adapter, round);
  const byPlayer = new Map<string, { main: number; side: Record<string, number> }>();
  for (const b of round.bets) {
    const entry = byPlayer.get(b.playerId) ?? { main: 0, side: {} };
    if (b.betType === 'main') entry.main = b.amount;
    else entry.side[b.betType] = b.amount;
    byPlayer.set(b.playerId, entry);
  }
  for (const [playerId, bet] of byPlayer) {
    rec.apply(
      adapter.placeBet(
        rec.state,
        { betId: playerId, playerId, betType: 'main', amount: bet.main, sideBets: bet.side },
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
      if (phase === 'insurance') {
        const r = adapter.timerFired(rec.state, 'insurance', windowOf(rec.state));
        if ('rejected' in r) break;
        rec.apply(r, 'insurance timer');
        continue;
      }
      if (phase !== 'deciding') break;
      // One stored decision per player and window: a player's next one belongs to a later
      // window (the engine would take it here too, as a change of mind, and replay it early).
      const decided = new Set<string>();
      while (pending.length > 0) {
        const next = pending[0];
        if (decided.has(next.playerId)) break;
        decided.add(next.playerId);
        const r = adapter.decide(rec.state, { playerId: next.playerId, action: next.action });
        if ('rejected' in r) break;
        pending.shift();
        rec.state = r.state;
      }
      const r = adapter.timerFired(rec.state, 'decision', windowOf(rec.state));
      if ('rejected' in r) break;
      rec.apply(r, 'decision timer');
    }
  }
  return rec.result(adapter);
}
