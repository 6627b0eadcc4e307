import { event, reject, Rejection } from '../core/engine';
import { isMinorUnits } from '../core/money';
import { newPlayerHands } from '../core/player-hands';
import { isSideBetOffered } from '../side-bets/side-bets';
import { prompt } from './expected-card';
import { appendPlayers } from './player-index';
import { DecisionNode, INFINITE_SIDE_BETS, InfiniteSideBet, InfiniteState } from './state';
import { InfiniteBatchRejection, InfiniteBetInput, InfiniteStep, timer } from './step';
import { emptySide, newInfiniteTable, NO_CHILDREN } from './table';

// ---- betting: a window of bets, single or in batches, written into the player columns ----------

export function openBetting(
  state: InfiniteState,
  roundId: string,
  roundOfShoe: number,
): InfiniteStep {
  if (state.phase !== 'idle' && state.phase !== 'settled' && state.phase !== 'voided') {
    return reject('wrong-phase', `a round is in progress (${state.phase})`);
  }
  if (!Number.isInteger(roundOfShoe) || roundOfShoe < 1) {
    return reject('wrong-phase', 'the round of the shoe is numbered from 1');
  }
  const fresh = newInfiniteTable(state.config);
  const next: InfiniteState = { ...fresh, phase: 'betting', roundId, roundOfShoe, window: 1 };
  const offered = INFINITE_SIDE_BETS.filter((k) =>
    isSideBetOffered(k, roundOfShoe, state.config.sideBetLastRound),
  );
  return {
    state: next,
    effects: [
      event('betting-opened', { roundId, roundOfShoe, sideBetsOffered: offered }),
      timer('betting', state.config.bettingWindowMs, next.window),
    ],
  };
}

/** Why the engine would refuse this bet now (betting open is checked separately), or null. */
export function validateInfiniteBet(state: InfiniteState, bet: InfiniteBetInput): Rejection | null {
  if (typeof bet.playerId !== 'string' || bet.playerId === '') {
    return { code: 'unknown-player', message: 'a bet needs a player id' };
  }
  const { mainBet, sideBet } = state.config;
  if (!isMinorUnits(bet.main) || bet.main < mainBet.min || bet.main > mainBet.max) {
    return {
      code: bet.main === 0 ? 'no-main-bet' : 'invalid-amount',
      message: `main bet must be whole minor units in [${mainBet.min}, ${mainBet.max}]`,
    };
  }
  const side: Readonly<Record<string, number | undefined>> = bet.side ?? {};
  for (const kind in side) {
    const amount = side[kind];
    if (!(INFINITE_SIDE_BETS as readonly string[]).includes(kind)) {
      return { code: 'side-bet-not-offered', message: `${kind} is not a side bet of this game` };
    }
    if (amount === 0 || amount === undefined) continue;
    if (
      !isSideBetOffered(kind as InfiniteSideBet, state.roundOfShoe, state.config.sideBetLastRound)
    ) {
      return {
        code: 'side-bet-not-offered',
        message: `${kind} is not offered in round ${state.roundOfShoe} of the shoe`,
      };
    }
    if (!isMinorUnits(amount) || amount < sideBet.min || amount > sideBet.max) {
      return {
        code: 'invalid-amount',
        message: `${kind} must be whole minor units in [${sideBet.min}, ${sideBet.max}]`,
      };
    }
  }
  return null;
}

export function placeBet(state: InfiniteState, bet: InfiniteBetInput): InfiniteStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const problem = validateInfiniteBet(state, bet);
  if (problem) return { rejected: problem };
  return {
    state: writeBets(state, [bet]),
    effects: [
      event('bet-accepted', { playerId: bet.playerId, main: bet.main, side: bet.side ?? {} }),
    ],
  };
}

/** Accepts every valid bet of the batch; the invalid ones are listed in the effect. */
export function placeBets(state: InfiniteState, bets: readonly InfiniteBetInput[]): InfiniteStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const accepted: InfiniteBetInput[] = [];
  const rejected: InfiniteBatchRejection[] = [];
  bets.forEach((bet, index) => {
    const problem = validateInfiniteBet(state, bet);
    if (problem) rejected.push({ index, playerId: bet.playerId, ...problem });
    else accepted.push(bet);
  });
  return {
    state: writeBets(state, accepted),
    effects: [event('bets-accepted', { accepted: accepted.length, rejected })],
  };
}

/** A player's later bet in the same window replaces the earlier one. */
function writeBets(state: InfiniteState, bets: readonly InfiniteBetInput[]): InfiniteState {
  const p = state.players;
  // Pass 1: where each bet goes (existing player, or a new one appended in arrival order).
  const at = new Int32Array(bets.length);
  const column = appendPlayers(p.ids, bets.length);
  for (let b = 0; b < bets.length; b += 1) {
    const id = bets[b].playerId;
    const i = column.indexOf(id);
    at[b] = i >= 0 ? i : column.add(id);
  }
  const ids = column.finish();
  // Pass 2: full-length packed columns (no growth while writing), old values copied first.
  const n = ids.length;
  const copy = (old: readonly number[]): number[] => {
    const c = new Array<number>(n).fill(0);
    for (let i = 0; i < old.length; i += 1) c[i] = old[i];
    return c;
  };
  const main = copy(p.main);
  const side = emptySide<number[]>(() => []);
  for (const k of INFINITE_SIDE_BETS) side[k] = copy(p.side[k]);
  for (let b = 0; b < bets.length; b += 1) {
    const i = at[b];
    const bet = bets[b];
    main[i] = bet.main;
    const chosen = bet.side;
    for (const k of INFINITE_SIDE_BETS) side[k][i] = chosen?.[k] ?? 0;
  }
  return {
    ...state,
    players: {
      ids,
      main,
      side,
      insurance: new Array<number>(n).fill(0),
      node: new Array<number>(n).fill(0),
      pending: new Array<number>(n).fill(-1),
    },
  };
}

export function closeBetting(state: InfiniteState): InfiniteStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const sideTotals = emptySide(() => 0);
  for (const k of INFINITE_SIDE_BETS) {
    let sum = 0;
    for (const v of state.players.side[k]) sum += v;
    sideTotals[k] = sum;
  }
  const root: DecisionNode = {
    parent: -1,
    action: null,
    hands: newPlayerHands(1).hands,
    children: NO_CHILDREN,
    players: state.players.ids.length,
  };
  const next: InfiniteState = { ...state, phase: 'dealing', nodes: [root], sideTotals };
  return {
    state: next,
    effects: [
      event('betting-closed', { roundId: state.roundId, players: state.players.ids.length }),
      prompt(next),
    ],
  };
}
