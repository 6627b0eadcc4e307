import type { CardCode } from '@studio/cards';
import { PokDengAdapter } from './pok-deng/pok-deng.adapter';
import type { GameAdapter } from './game-adapter';
import { compareReplay, replayStoredRound, StoredRound } from './replay';

/**
 * games.md section 5, worked example 1: Banker 4H 8C (2), Player 1 6C 7S (3), Player 1 bet of 100:
 * the player wins 1:1 and gets back 300 of the 200 deducted.
 */
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

function adapter(): GameAdapter {
  return new PokDengAdapter({ bettingWindowMs: 15_000 }) as GameAdapter;
}

/** The record the table would have stored for example 1: bet, cards in dealing order, settlement. */
function storedExampleOne(): StoredRound {
  const a = adapter();
  const start = a.startRound({ roundId: 'r-1', shoeNumber: 1, roundNumber: 1 });
  if ('rejected' in start) throw new Error(start.rejected.message);
  let state = start.state;
  const bet = a.placeBet(
    state,
    { betId: 'b-1', playerId: 'alice', betType: 'player', spot: '1', amount: 100 },
    1,
  );
  if ('rejected' in bet) throw new Error(bet.rejected.message);
  state = bet.state;
  const cards: StoredRound['cards'] = [];
  for (let slot = a.expectedCard(state); slot; slot = a.expectedCard(state)) {
    const dealt = a.card(state, CARDS[slot.slot]);
    if ('rejected' in dealt) throw new Error(dealt.rejected.message);
    cards.push({ slot: slot.slot, card: CARDS[slot.slot] });
    state = dealt.state;
  }
  return {
    roundId: 'r-1',
    game: 'pok-deng',
    shoeNumber: 1,
    roundNumber: 1,
    bets: [{ id: 'b-1', playerId: 'alice', betType: 'player', spot: '1', amount: 100 }],
    cards,
    decisions: [],
    settlements: [
      {
        betId: 'b-1',
        playerId: 'alice',
        betType: 'player',
        spot: '1',
        stake: 200,
        returned: 300,
        net: 100,
        outcome: 'player-wins',
        roundedDown: '0',
      },
    ],
    hands: [],
  };
}

describe('replayStoredRound', () => {
  it('recomputes games.md Pok Deng example 1 (returned 300 of 200 deducted) from the stored record', () => {
    const stored = storedExampleOne();
    expect(stored.cards).toHaveLength(13);
    const result = replayStoredRound(adapter(), stored);
    if (!result.ok) throw new Error(`replay failed at ${result.step}`);
    expect(result.replayed.settlements).toEqual([
      expect.objectContaining({ betId: 'b-1', stake: 200, returned: 300, net: 100 }),
    ]);
    expect(compareReplay(stored, result.replayed)).toEqual([]);
  });

  it('names the altered field when a stored settlement was changed', () => {
    const stored = storedExampleOne();
    const result = replayStoredRound(adapter(), stored);
    if (!result.ok) throw new Error(`replay failed at ${result.step}`);
    stored.settlements = [{ ...result.replayed.settlements[0], returned: 400, net: 200 }];
    expect(compareReplay(stored, result.replayed)).toEqual([
      { field: 'settlement[0].returned', stored: 400, replayed: 300 },
      { field: 'settlement[0].net', stored: 200, replayed: 100 },
    ]);
  });

  it('compares every stored hand (games.md example 1: Player 1 scores 3, the banker 2) with the replay', () => {
    const stored = storedExampleOne();
    const result = replayStoredRound(adapter(), stored);
    if (!result.ok) throw new Error(`replay failed at ${result.step}`);
    const hands = result.replayed.hands!;
    expect(hands.find((h) => h.hand === 'player-1')).toMatchObject({
      cards: ['6C', '7S'],
      total: '3',
    });
    expect(hands.find((h) => h.hand === 'banker')).toMatchObject({
      cards: ['4H', '8C'],
      total: '2',
    });
    stored.hands = hands.map((h) => (h.hand === 'player-1' ? { ...h, result: 'lose' } : h));
    const original = hands.find((h) => h.hand === 'player-1')!.result;
    expect(compareReplay(stored, result.replayed)).toEqual([
      { field: 'hand player-1.result', stored: 'lose', replayed: original },
    ]);
    stored.hands = hands.filter((h) => h.hand !== 'banker');
    expect(compareReplay(stored, result.replayed)).toEqual([
      { field: 'hand banker', stored: null, replayed: hands.find((h) => h.hand === 'banker') },
    ]);
  });

  it('reports a missing settlement and a round the cards do not finish', () => {
    const stored = storedExampleOne();
    stored.cards = stored.cards.slice(0, 12);
    const result = replayStoredRound(adapter(), stored);
    if (!result.ok) throw new Error(`replay failed at ${result.step}`);
    expect(compareReplay(stored, result.replayed)).toEqual([
      { field: 'round-over', stored: true, replayed: false },
      { field: 'settlement-count', stored: 1, replayed: 0 },
      { field: 'settlement[0]', stored: stored.settlements[0], replayed: null },
    ]);
  });

  it('returns the step the engine refused instead of throwing', () => {
    const stored = storedExampleOne();
    stored.bets = [{ ...stored.bets[0], betType: 'banker' }];
    const result = replayStoredRound(adapter(), stored);
    expect(result).toMatchObject({
      ok: false,
      step: 'bet b-1',
      rejection: { code: 'unknown-bet-type' },
    });
  });

  it('compares engine-made decisions by what was decided, not by the window the record adds', () => {
    const decision = { playerId: 'bot:1', hand: '1/1', action: 'hit', automatic: true };
    const stored = { ...storedExampleOne(), game: 'european-blackjack-practice' };
    const replayed = {
      settlements: stored.settlements,
      decisions: [decision],
      roundOver: true,
      finalState: null,
      hands: null,
    };
    expect(
      compareReplay({ ...stored, decisions: [{ ...decision, window: null }] }, replayed),
    ).toEqual([]);
    expect(
      compareReplay(
        { ...stored, decisions: [{ ...decision, action: 'stand', window: null }] },
        replayed,
      ),
    ).toEqual([
      { field: 'decision[0]', stored: { ...decision, action: 'stand' }, replayed: decision },
    ]);
  });
});

describe('the Pok Deng public view (consoles) of a settled round', () => {
  it('shows the round settled and its revealed hands, but no player and no settlement', () => {
    const a = adapter();
    const result = replayStoredRound(a, storedExampleOne());
    if (!result.ok) throw new Error(`replay failed at ${result.step}`);
    expect(result.replayed.roundOver).toBe(true);
    const view = a.publicView(result.replayed.finalState) as Record<string, unknown>;
    expect(view).toMatchObject({ phase: 'settled', settled: true });
    expect(view).not.toHaveProperty('settlements');
    expect(JSON.stringify(view)).toContain('"6C"');
    expect(JSON.stringify(view)).not.toMatch(/alice|b-1/);
  });
});
