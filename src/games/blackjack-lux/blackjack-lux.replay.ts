import type { GameAdapter } from '../game-adapter';
import {
  placeEach,
  ReplayedRound,
  ReplayRefused,
  startReplay,
  StoredRound,
  windowOf,
} from '../replay-kit';

/**
 * Blackjack Lux: the bets (insurance is a decision, not a stored bet to place), then the cards;
 * before each card the stored decisions are fed in order as soon as the engine takes them (the
 * automatic ones are stored as decisions too), and an unanswered insurance window times out.
 */
export function replayLux(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = startReplay(adapter, round);
  placeEach(
    adapter,
    rec,
    round,
    round.bets.filter((b) => b.betType !== 'insurance'),
  );
  const pending = [...round.decisions];
  const feed = () => {
    for (let guard = 0; guard < 50; guard += 1) {
      const next = pending[0];
      if (next) {
        const r = adapter.decide(rec.state, {
          playerId: next.playerId,
          action: next.action,
          seat: next.hand?.split('/')[0],
        });
        if (!('rejected' in r)) {
          pending.shift();
          rec.apply(r, `decision ${next.playerId} ${next.action}`);
          continue;
        }
      }
      if (adapter.phase(rec.state) === 'insurance') {
        rec.apply(
          adapter.timerFired(rec.state, 'insurance', windowOf(rec.state)),
          'insurance timer',
        );
        continue;
      }
      return;
    }
  };
  feed();
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  for (const c of round.cards) {
    feed();
    rec.apply(adapter.card(rec.state, c.card), `card ${c.slot} ${c.card}`);
  }
  feed();
  if (pending.length > 0) {
    throw new ReplayRefused('decisions', {
      code: 'decisions-left-over',
      message: `${pending.length} stored decision(s) the engine never asked for, first ${pending[0].playerId} ${pending[0].action}`,
    });
  }
  // Lux records decisions as they are taken, not as engine output: report them as stored.
  return { ...rec.result(adapter), decisions: [...round.decisions] };
}
