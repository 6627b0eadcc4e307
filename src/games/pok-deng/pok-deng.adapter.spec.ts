import type { CardCode } from '@studio/cards';
import type { GameAdapter } from '../game-adapter';
import { PokDengAdapter } from './pok-deng.adapter';

/** games.md section 5, worked example 1: Player 1 (6C 7S) beats the banker (4H 8C). */
const CARDS: Record<string, CardCode> = {
  burn: '2D',
  'player-1/1': '6C',
  'player-1/2': '7S',
  'player-2/1': '3D',
  'player-2/2': '4D',
  'player-3/1': '5H',
  'player-3/2': '9S',
  'player-4/1': '2S',
  'player-4/2': '3S',
  'player-5/1': '7H',
  'player-5/2': '8H',
  'banker/1': '4H',
  'banker/2': '8C',
};

function settledRound() {
  // Through the port the table drives every game by (as the replay does).
  const adapter = new PokDengAdapter({ bettingWindowMs: 15_000 }) as GameAdapter;
  const start = adapter.startRound({ roundId: 'r-1', shoeNumber: 1, roundNumber: 1 });
  if ('rejected' in start) throw new Error(start.rejected.message);
  const bet = adapter.placeBet(
    start.state,
    { betId: 'b-1', playerId: 'casino-a:alice', betType: 'player', spot: '1', amount: 100 },
    1,
  );
  if ('rejected' in bet) throw new Error(bet.rejected.message);
  let state = bet.state;
  // As the replay plays it: the cards in dealing order, betting closed, then the reveals.
  for (let slot = adapter.expectedCard(state); slot; slot = adapter.expectedCard(state)) {
    const dealt = adapter.card(state, CARDS[slot.slot]);
    if ('rejected' in dealt) throw new Error(dealt.rejected.message);
    state = dealt.state;
  }
  const closed = adapter.closeBetting(state);
  if ('rejected' in closed) throw new Error(closed.rejected.message);
  state = closed.state;
  for (let step = adapter.autoStep(state); step; step = adapter.autoStep(state)) {
    if ('rejected' in step) throw new Error(step.rejected.message);
    state = step.state;
  }
  return { adapter, state };
}

describe('the Pok Deng public view (consoles)', () => {
  it('shows the settled round and its revealed hands, but no player and no settlement', () => {
    const { adapter, state } = settledRound();
    expect(adapter.isRoundOver(state)).toBe(true);
    const view = adapter.publicView(state) as Record<string, unknown>;
    expect(view).toMatchObject({ phase: 'settled', settled: true });
    expect(view).not.toHaveProperty('settlements');
    expect(JSON.stringify(view)).toContain('"6C"');
    expect(JSON.stringify(view)).not.toMatch(/alice|casino-a|b-1/);
  });
});
