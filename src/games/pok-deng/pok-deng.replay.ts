import type { GameAdapter } from '../game-adapter';
import { ReplayedRound, placeEach, startReplay, StoredRound } from '../replay-kit';

/** Pok Deng: bets, the cards in dealing order (the engine checks the order, not the phase), then the reveals. */
export function replayPokDeng(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = startReplay(adapter, round);
  placeEach(adapter, rec, round, round.bets);
  for (const c of round.cards)
    rec.apply(adapter.card(rec.state, c.card), `card ${c.slot} ${c.card}`);
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  for (let guard = 0; guard < 100; guard += 1) {
    const step = adapter.autoStep(rec.state);
    if (!step || 'rejected' in step) break;
    rec.apply(step, 'auto step');
  }
  return rec.result(adapter);
}
