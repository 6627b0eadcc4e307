import { reject, Rejection, TimerName, event } from '../core/engine';
import { halfOf } from '../core/money';
import {
  applyAction,
  autoPlayAction,
  currentHandIndex,
  legalActions,
  PLAYER_ACTIONS,
  PlayerAction,
  playerStatus,
} from '../core/player-hands';
import { closeBetting } from './betting';
import { advance, afterInsurance } from './cards';
import { indexOfPlayer } from './player-index';
import { DecisionNode, InfiniteState } from './state';
import { continueAfter, InfiniteBatchRejection, InfiniteDecisionInput, InfiniteStep } from './step';
import { NO_CHILDREN } from './table';

// ---- decisions: windows of insurance and play decisions, closed with one pass per window -------

const INSURANCE_YES = 1;
const INSURANCE_NO = 0;
const ACTION_CODE: Readonly<Record<PlayerAction, number>> = {
  hit: 0,
  stand: 1,
  double: 2,
  split: 3,
  surrender: 4,
};

export function decide(
  state: InfiniteState,
  decisions: readonly InfiniteDecisionInput[],
  single: boolean,
): InfiniteStep {
  if (state.phase !== 'deciding' && state.phase !== 'insurance') {
    return reject('no-decision-window', `no decision window is open (${state.phase})`);
  }
  const insuranceWindow = state.phase === 'insurance';
  const pending = state.players.pending.slice();
  const legalByNode: number[] = []; // node -> bit mask of legal action codes
  const rejected: InfiniteBatchRejection[] = [];
  let accepted = 0;
  for (let index = 0; index < decisions.length; index += 1) {
    const d = decisions[index];
    const i = indexOfPlayer(state.players.ids, d.playerId);
    let problem: Rejection | null = null;
    if (i < 0) problem = { code: 'unknown-player', message: 'the player has no bet this round' };
    else if (insuranceWindow) {
      if (d.action === 'insurance') pending[i] = INSURANCE_YES;
      else if (d.action === 'no-insurance') pending[i] = INSURANCE_NO;
      else problem = { code: 'illegal-action', message: 'only insurance is decided now' };
    } else {
      const code = Object.hasOwn(ACTION_CODE, d.action)
        ? ACTION_CODE[d.action as PlayerAction]
        : undefined;
      const mask = legalMask(state, state.players.node[i], legalByNode);
      if (mask === 0) problem = { code: 'not-your-turn', message: 'the hand cannot act now' };
      else if (code === undefined || (mask & (1 << code)) === 0) {
        problem = { code: 'illegal-action', message: `${d.action} is not legal on this hand` };
      } else pending[i] = code;
    }
    if (problem) {
      if (single) return { rejected: problem };
      rejected.push({ index, playerId: d.playerId, ...problem });
    } else accepted += 1;
  }
  const next: InfiniteState = { ...state, players: { ...state.players, pending } };
  return {
    state: next,
    effects: single
      ? [
          event('decision-accepted', {
            window: state.window,
            playerId: decisions[0].playerId,
            action: decisions[0].action,
          }),
        ]
      : [event('decisions-accepted', { window: state.window, accepted, rejected })],
  };
}

function legalMask(state: InfiniteState, nodeId: number, cache: number[]): number {
  let mask = cache[nodeId];
  if (mask === undefined) {
    const node = state.nodes[nodeId];
    const i = currentHandIndex(node);
    mask = 0;
    if (i >= 0) {
      const legal = legalActions(
        node.hands[i],
        { handCount: node.hands.length },
        state.config.rules,
      );
      for (const a of legal) mask |= 1 << ACTION_CODE[a];
    }
    cache[nodeId] = mask;
  }
  return mask;
}

export function timeout(state: InfiniteState, name: TimerName, window: number): InfiniteStep {
  if (window !== state.window)
    return reject('wrong-phase', `stale ${name} timer (window ${window})`);
  if (name === 'betting') return closeBetting(state);
  return closeWindow(state);
}

export function closeWindow(state: InfiniteState): InfiniteStep {
  if (state.phase === 'betting') return closeBetting(state);
  if (state.phase === 'insurance') return closeInsurance(state);
  if (state.phase !== 'deciding') return reject('no-decision-window', 'no window is open');
  return closeDecisionWindow(state);
}

/** Insurance costs half the main stake (rounded down by Default); no answer means no insurance. */
function closeInsurance(state: InfiniteState): InfiniteStep {
  const { main, pending } = state.players;
  const rounding = state.config.rules.rounding;
  const insurance = new Array<number>(main.length);
  let taken = 0;
  for (let i = 0; i < main.length; i += 1) {
    insurance[i] = pending[i] === INSURANCE_YES ? halfOf(main[i], rounding).amount : 0;
    if (insurance[i] > 0) taken += 1;
  }
  const next: InfiniteState = {
    ...state,
    players: { ...state.players, insurance, pending: new Array<number>(main.length).fill(-1) },
  };
  return continueAfter(afterInsurance(next), [
    event('insurance-closed', { window: state.window, taken }),
  ]);
}

/**
 * Moves every player of an acting node to the child node of their decision (or of the automatic
 * play when they sent none). One pass over two number columns; hands are touched per node.
 */
function closeDecisionWindow(state: InfiniteState): InfiniteStep {
  const rules = state.config.rules;
  const nodes: DecisionNode[] = state.nodes.slice();
  const autoCode: number[] = nodes.map((node) => {
    if (node.players === 0 || playerStatus(node) !== 'acting') return -1;
    const hand = node.hands[currentHandIndex(node)];
    const legal = legalActions(hand, { handCount: node.hands.length }, rules);
    const auto = autoPlayAction(hand);
    return ACTION_CODE[legal.includes(auto) ? auto : 'stand'];
  });
  const childOf = (parent: number, code: number): number => {
    const existing = nodes[parent].children[code];
    if (existing >= 0) return existing;
    const applied = applyAction(nodes[parent], PLAYER_ACTIONS[code], rules);
    if (!applied.ok) throw new Error(`engine invariant: ${applied.reason}`); // validated on input
    const id = nodes.length;
    nodes.push({
      parent,
      action: PLAYER_ACTIONS[code],
      hands: applied.player.hands,
      children: NO_CHILDREN,
      players: 0,
    });
    const children = nodes[parent].children.slice();
    children[code] = id;
    nodes[parent] = { ...nodes[parent], children };
    autoCode.push(-1);
    return id;
  };
  const { node, pending } = state.players;
  const nextNode = node.slice();
  // At most five children per acting node: size the lookup tables for every possible new node.
  const capacity = nodes.length * 6;
  const table = new Int32Array(nodes.length * 5).fill(-1); // parent * 5 + code -> child
  const moved = new Int32Array(capacity); // child -> players moved in
  let autoPlayed = 0;
  for (let i = 0; i < node.length; i += 1) {
    const k = node[i];
    const auto = autoCode[k];
    if (auto < 0) continue;
    let code = pending[i];
    if (code < 0) {
      code = auto;
      autoPlayed += 1;
    }
    const slot = k * 5 + code;
    let child = table[slot];
    if (child < 0) {
      child = childOf(k, code);
      table[slot] = child;
    }
    nextNode[i] = child;
    moved[child] += 1;
  }
  const moves: { from: number; action: string | null; to: number; players: number }[] = [];
  for (let child = 0; child < nodes.length; child += 1) {
    const count = moved[child];
    if (count === 0) continue;
    const parent = nodes[child].parent;
    nodes[child] = { ...nodes[child], players: nodes[child].players + count };
    nodes[parent] = { ...nodes[parent], players: nodes[parent].players - count };
    moves.push({ from: parent, action: nodes[child].action, to: child, players: count });
  }
  const next: InfiniteState = {
    ...state,
    nodes,
    players: {
      ...state.players,
      node: nextNode,
      pending: new Array<number>(node.length).fill(-1),
    },
  };
  return continueAfter(advance(next), [
    event('decision-window-closed', { window: state.window, autoPlayed, moves }),
  ]);
}
