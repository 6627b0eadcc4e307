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
 * European practice: the humans' bets (bots bet by themselves), each card into the slot the engine
 * expects (checked against the stored slot), bots through autoStep, and each human decision from
 * the record: an automatic one by the decision timer, a taken one by deciding.
 */
export function replayPractice(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = startReplay(adapter, round);
  placeEach(
    adapter,
    rec,
    round,
    round.bets.filter((b) => !b.playerId.startsWith('bot:')),
  );
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  const cards = [...round.cards];
  const human = round.decisions.filter((d) => !d.playerId.startsWith('bot:'));
  for (let guard = 0; guard < 300 && !adapter.isRoundOver(rec.state); guard += 1) {
    const expected = adapter.expectedCard(rec.state);
    if (expected) {
      const next = cards.shift();
      if (!next || next.slot !== expected.slot) {
        throw new ReplayRefused(`card for ${expected.slot}`, {
          code: 'card-slot-mismatch',
          message: next
            ? `the engine expects ${expected.slot}, the record has ${next.slot}=${next.card}`
            : `the engine expects ${expected.slot}, the record has no more cards`,
        });
      }
      rec.apply(adapter.card(rec.state, next.card), `card ${next.slot} ${next.card}`);
      continue;
    }
    const auto = adapter.autoStep(rec.state);
    if (auto) {
      rec.apply(auto, 'auto step');
      continue;
    }
    const d = human.shift();
    if (!d) {
      throw new ReplayRefused('decisions', {
        code: 'decision-missing',
        message: 'the engine waits for a decision the record does not have',
      });
    }
    rec.apply(
      d.automatic
        ? adapter.timerFired(rec.state, 'decision', windowOf(rec.state))
        : adapter.decide(rec.state, { playerId: d.playerId, action: d.action }),
      `decision ${d.playerId} ${d.action}`,
    );
  }
  if (cards.length > 0) {
    throw new ReplayRefused('cards', {
      code: 'cards-left-over',
      message: `${cards.length} stored card(s) the engine never asked for, first ${cards[0].slot}=${cards[0].card}`,
    });
  }
  return rec.result(adapter);
}
