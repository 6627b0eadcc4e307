import type { CardCode } from '@studio/cards';
import type { AdapterResult, DecisionRecord, SettlementRecord } from '../game-adapter';
import { windowOf } from '../replay-kit';
import { compareReplay, replayStoredRound, StoredRound } from '../replay';
import { InfiniteBlackjackAdapter } from './infinite-blackjack.adapter';
import type { InfiniteState } from '@studio/games/blackjack';

type Decision = { playerId: string; action: string };

function adapter(): InfiniteBlackjackAdapter {
  return new InfiniteBlackjackAdapter({ bettingWindowMs: 15_000, decisionWindowMs: 10_000 });
}

function ok(r: AdapterResult<InfiniteState>) {
  if ('rejected' in r) throw new Error(`${r.rejected.code}: ${r.rejected.message}`);
  return r;
}

/**
 * Plays a round as the table would: the players' decisions of each window (insurance windows
 * included, in the order windows open) are sent one by one, then the window's timer closes it.
 * Returns what the table stores.
 */
function playAtTheTable(deck: string[], windows: Decision[][]): StoredRound {
  const a = adapter();
  let state = ok(a.startRound({ roundId: 'r-1', shoeNumber: 1, roundNumber: 1 })).state;
  const bets: StoredRound['bets'] = [];
  for (const playerId of ['alice', 'bob']) {
    const bet = { betId: `${playerId}-main`, playerId, betType: 'main', amount: 1_000 };
    state = ok(a.placeBet(state, bet)).state;
    bets.push({ id: bet.betId, playerId, betType: 'main', spot: null, amount: bet.amount });
  }
  state = ok(a.closeBetting(state)).state;
  const cards: StoredRound['cards'] = [];
  const decisions: DecisionRecord[] = [];
  const settlements: SettlementRecord[] = [];
  const script = [...windows];
  for (const card of deck) {
    const slot = a.expectedCard(state);
    if (!slot) break;
    const dealt = ok(a.card(state, card as CardCode));
    cards.push({ slot: slot.slot, card: card as CardCode });
    settlements.push(...(dealt.settlements ?? []));
    state = dealt.state;
    while (a.phase(state) === 'insurance' || a.phase(state) === 'deciding') {
      for (const d of script.shift() ?? []) {
        const decided = ok(a.decide(state, d));
        decisions.push(...(decided.decisions ?? []));
        state = decided.state;
      }
      const timer = a.phase(state) === 'insurance' ? 'insurance' : 'decision';
      const closed = ok(a.timerFired(state, timer, windowOf(state)));
      settlements.push(...(closed.settlements ?? []));
      state = closed.state;
    }
  }
  expect(a.isRoundOver(state)).toBe(true);
  return {
    roundId: 'r-1',
    game: 'infinite-blackjack',
    shoeNumber: 1,
    roundNumber: 1,
    bets,
    cards,
    decisions: decisions.map((d) => ({ ...d, window: d.window ?? null })),
    settlements,
    hands: [],
  };
}

/** Dealt as player 1, dealer up, player 2, hole: players on 11 against a dealer's 17, then a nine
 * for those who hit (20, which may still hit). */
const DECK = ['5H', '9C', '6D', '8D', '9S', '2C', '3D', '4C', '3C'];

describe('Infinite Blackjack replay', () => {
  it('replays a change of mind and two windows from the windows the decisions were taken in', () => {
    // Window 1: alice says stand, then hit (her last word counts); bob hits. Window 2: both stand.
    const stored = playAtTheTable(DECK, [
      [
        { playerId: 'alice', action: 'stand' },
        { playerId: 'alice', action: 'hit' },
        { playerId: 'bob', action: 'hit' },
      ],
      [
        { playerId: 'alice', action: 'stand' },
        { playerId: 'bob', action: 'stand' },
      ],
    ]);
    const first = stored.decisions[0].window!;
    expect(stored.decisions.map((d) => d.window)).toEqual([
      first,
      first,
      first,
      first + 1,
      first + 1,
    ]);
    const result = replayStoredRound(adapter(), stored);
    if (!result.ok) throw new Error(`${result.step}: ${result.rejection.code}`);
    expect(compareReplay(stored, result.replayed)).toEqual([]);

    // Without the windows (a guess of one decision per player and window), the same record does
    // not replay: the guess put alice's "hit" in the second window.
    const guessed = replayStoredRound(adapter(), {
      ...stored,
      decisions: stored.decisions.map((d) => ({ ...d, window: null })),
    });
    const mismatches = guessed.ok ? compareReplay(stored, guessed.replayed) : [guessed.step];
    expect(mismatches).not.toEqual([]);
  });

  it('applies a decision taken in an insurance window there', () => {
    const stored = playAtTheTable(
      ['9H', 'AC', '9D', '7D', '2S', 'TS', '3C', '4C', '8D'],
      [[{ playerId: 'alice', action: 'insurance' }], [{ playerId: 'bob', action: 'hit' }]],
    );
    const first = stored.decisions[0].window!;
    expect(stored.decisions.map((d) => [d.action, d.window])).toEqual([
      ['insurance', first],
      ['hit', first + 1],
    ]);
    const result = replayStoredRound(adapter(), stored);
    if (!result.ok) throw new Error(`${result.step}: ${result.rejection.code}`);
    expect(compareReplay(stored, result.replayed)).toEqual([]);
    expect(result.replayed.settlements.some((s) => s.betType === 'insurance')).toBe(true);
  });

  it('reports a stored decision the engine refuses in its window', () => {
    const stored = playAtTheTable(DECK, [[{ playerId: 'bob', action: 'hit' }], []]);
    stored.decisions = [{ ...stored.decisions[0], action: 'insurance' }];
    const result = replayStoredRound(adapter(), stored);
    expect(result).toMatchObject({ ok: false, step: 'decision bob insurance' });
  });
});
