import { CardCode, cardCode, parseCardCode } from '@studio/cards';
import {
  dealerCards,
  dealerMustHit,
  dealerPeeks,
  insuranceOffered,
  revealHoleCard,
} from '../core/dealer';
import {
  EventEffect,
  PromptEffect,
  reject,
  Rejection,
  StepResult,
  TimerEffect,
  TimerName,
  event,
} from '../core/engine';
import { handTotal, isBlackjack } from '../core/hand';
import { halfOf, isMinorUnits } from '../core/money';
import {
  applyAction,
  autoPlayAction,
  currentHandIndex,
  dealToPlayer,
  legalActions,
  newPlayerHands,
  PLAYER_ACTIONS,
  PlayerAction,
  playerStatus,
} from '../core/player-hands';
import { isSideBetOffered } from '../side-bets/side-bets';
import { appendPlayers, indexOfPlayer } from './player-index';
import { settleInfiniteRound } from './settlement';
import {
  DEFAULT_INFINITE_CONFIG,
  DecisionNode,
  INFINITE_SIDE_BETS,
  InfiniteConfig,
  InfiniteSideBet,
  InfiniteState,
  InfinitePlayerColumns,
} from './state';

/**
 * Infinite Blackjack (games.md §2): one shared card sequence, any number of players.
 *
 * Scale: players who made the same decisions hold the same hand, so hands live in a decision
 * trie (`nodes`) and a player is just a node id in a column. A card is applied once per live
 * node, never per player; a decision window is closed with one pass over the columns.
 * Inputs that touch many players come in batches (`bets`, `decisions`) so a window costs one
 * copy of a column, not one per player.
 */

export type InfiniteDecision = PlayerAction | 'insurance' | 'no-insurance';

export interface InfiniteBetInput {
  readonly playerId: string;
  readonly main: number;
  readonly side?: Readonly<Partial<Record<InfiniteSideBet, number>>>;
}

export interface InfiniteDecisionInput {
  readonly playerId: string;
  readonly action: InfiniteDecision;
}

/** One refused item of a `bets` / `decisions` batch: `index` is its position in the batch. */
export interface InfiniteBatchRejection {
  readonly index: number;
  readonly playerId: string;
  readonly code: string;
  readonly message: string;
}

export type InfiniteInput =
  | { readonly type: 'open-betting'; readonly roundId: string; readonly roundOfShoe: number }
  | ({ readonly type: 'bet' } & InfiniteBetInput)
  | { readonly type: 'bets'; readonly bets: readonly InfiniteBetInput[] }
  | { readonly type: 'close-betting' }
  | { readonly type: 'card'; readonly card: string }
  | ({ readonly type: 'decision' } & InfiniteDecisionInput)
  | { readonly type: 'decisions'; readonly decisions: readonly InfiniteDecisionInput[] }
  | { readonly type: 'close-window' }
  | { readonly type: 'timeout'; readonly timer: TimerName; readonly window: number }
  | { readonly type: 'void'; readonly reason: string };

export type InfiniteEffect = EventEffect | TimerEffect | PromptEffect;
export type InfiniteStep = StepResult<InfiniteState, InfiniteEffect>;

const INSURANCE_YES = 1;
const INSURANCE_NO = 0;
const ACTION_CODE: Readonly<Record<PlayerAction, number>> = {
  hit: 0,
  stand: 1,
  double: 2,
  split: 3,
  surrender: 4,
};

const emptySide = <T>(make: () => T): Record<InfiniteSideBet, T> =>
  ({
    pairs: make(),
    'bust-bonus': make(),
    'lucky-trio': make(),
    'poker-trio': make(),
  }) as Record<InfiniteSideBet, T>;

const emptyColumns = (): InfinitePlayerColumns => ({
  ids: [],
  main: [],
  insurance: [],
  side: emptySide(() => []),
  node: [],
  pending: [],
});

export function newInfiniteTable(config: Partial<InfiniteConfig> = {}): InfiniteState {
  return {
    game: 'infinite-blackjack',
    config: { ...DEFAULT_INFINITE_CONFIG, ...config },
    phase: 'idle',
    roundId: null,
    roundOfShoe: 0,
    window: 0,
    dealt: 0,
    playerCards: [],
    dealer: { up: null, hole: null, holeRevealed: false, draws: [] },
    peeked: false,
    commonDraws: [],
    cardCounts: {},
    players: emptyColumns(),
    nodes: [],
    sideTotals: emptySide(() => 0),
    settlement: null,
    voidReason: null,
  };
}

/** The card slot the engine expects next, for the dealer console and the reading router. */
export type InfiniteExpectedCard =
  | { readonly slot: 'player'; readonly position: number }
  | { readonly slot: 'dealer-up' }
  | { readonly slot: 'dealer-hole' }
  | { readonly slot: 'common-draw'; readonly position: number }
  | { readonly slot: 'dealer-draw'; readonly position: number };

export function infiniteExpectedCard(state: InfiniteState): InfiniteExpectedCard | null {
  switch (state.phase) {
    case 'dealing': {
      const slot = state.config.dealOrder[state.dealt];
      return slot === 'player'
        ? { slot, position: state.playerCards.length + 1 }
        : { slot: slot === 'dealer-up' ? 'dealer-up' : 'dealer-hole' };
    }
    case 'drawing':
      return { slot: 'common-draw', position: state.commonDraws.length + 1 };
    case 'dealer':
      return { slot: 'dealer-draw', position: infiniteDealerCards(state).length + 1 };
    default:
      return null;
  }
}

export function infiniteDealerCards(state: InfiniteState): CardCode[] {
  return dealerCards(state.dealer);
}

export function stepInfinite(state: InfiniteState, input: InfiniteInput): InfiniteStep {
  switch (input.type) {
    case 'open-betting':
      return openBetting(state, input.roundId, input.roundOfShoe);
    case 'bet':
      return placeBet(state, input);
    case 'bets':
      return placeBets(state, input.bets);
    case 'close-betting':
      return closeBetting(state);
    case 'card':
      return applyCard(state, input.card);
    case 'decision':
      return decide(state, [input], true);
    case 'decisions':
      return decide(state, input.decisions, false);
    case 'close-window':
      return closeWindow(state);
    case 'timeout':
      return timeout(state, input.timer, input.window);
    case 'void':
      return voidRound(state, input.reason);
  }
}

// ---- betting -------------------------------------------------------------------------------------

function openBetting(state: InfiniteState, roundId: string, roundOfShoe: number): InfiniteStep {
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

function placeBet(state: InfiniteState, bet: InfiniteBetInput): InfiniteStep {
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
function placeBets(state: InfiniteState, bets: readonly InfiniteBetInput[]): InfiniteStep {
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

function closeBetting(state: InfiniteState): InfiniteStep {
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

const NO_CHILDREN: readonly number[] = [-1, -1, -1, -1, -1];

// ---- cards ---------------------------------------------------------------------------------------

function applyCard(state: InfiniteState, text: string): InfiniteStep {
  const slot = infiniteExpectedCard(state);
  if (!slot) return reject('no-card-expected', `no card is expected (${state.phase})`);
  const parsed = typeof text === 'string' ? parseCardCode(text) : undefined;
  if (!parsed) return reject('invalid-card', `not a card: ${String(text)}`);
  const card = cardCode(parsed);
  const seen = state.cardCounts[card] ?? 0;
  if (seen >= state.config.rules.decks) {
    return reject(
      'composition-exceeded',
      `${card} already came out ${seen} times this round (${state.config.rules.decks} decks)`,
    );
  }
  const counted: InfiniteState = {
    ...state,
    cardCounts: { ...state.cardCounts, [card]: seen + 1 },
  };
  switch (slot.slot) {
    case 'player':
    case 'dealer-up':
    case 'dealer-hole':
      return dealInitial(counted, slot.slot, card);
    case 'common-draw':
      return drawCommon(counted, card);
    case 'dealer-draw':
      return drawDealer(counted, card);
  }
}

function dealInitial(state: InfiniteState, slot: string, card: CardCode): InfiniteStep {
  let next: InfiniteState = { ...state, dealt: state.dealt + 1 };
  if (slot === 'player') {
    const root = next.nodes[0];
    next = {
      ...next,
      playerCards: [...next.playerCards, card],
      nodes: [{ ...root, hands: dealToPlayer(root, card, next.config.rules).hands }],
    };
  } else if (slot === 'dealer-up') {
    next = { ...next, dealer: { ...next.dealer, up: card } };
  } else {
    next = { ...next, dealer: { ...next.dealer, hole: card } };
  }
  const effects: InfiniteEffect[] = [
    slot === 'dealer-hole'
      ? event('card-dealt', { slot, card }, true) // face down: recorded, not published
      : event('card-dealt', { slot, card }),
  ];
  if (next.dealt < next.config.dealOrder.length)
    return { state: next, effects: [...effects, prompt(next)] };
  return continueAfter(afterInitialDeal(next), effects);
}

function afterInitialDeal(state: InfiniteState): InfiniteStep {
  const up = state.dealer.up as CardCode;
  if (insuranceOffered(up, state.config.rules) && state.players.ids.length > 0) {
    const next: InfiniteState = {
      ...state,
      phase: 'insurance',
      window: state.window + 1, // pending is all -1 since the bets were written
    };
    return {
      state: next,
      effects: [
        event('insurance-offered', { window: next.window }),
        timer('insurance', state.config.insuranceWindowMs, next.window),
      ],
    };
  }
  return afterInsurance(state);
}

/** Peek (Default): a dealer BJ ends the round at once; otherwise the players decide. */
function afterInsurance(state: InfiniteState): InfiniteStep {
  const up = state.dealer.up as CardCode;
  const hole = state.dealer.hole as CardCode;
  if (!dealerPeeks(up, state.config.rules)) return advance(state);
  const checked: InfiniteState = { ...state, peeked: true };
  if (isBlackjack([up, hole])) {
    const revealed = revealHoleCard(checked);
    return continueAfter(settle(revealed.state), [
      event('dealer-checked', { blackjack: true }),
      ...revealed.effects,
    ]);
  }
  return continueAfter(advance(checked), [event('dealer-checked', { blackjack: false })]);
}

/** Opens a decision window if any live hand can act, else draws, else plays the dealer. */
function advance(state: InfiniteState): InfiniteStep {
  let acting = false;
  let drawing = false;
  const actingNodes: { node: number; cards: readonly CardCode[]; legal: PlayerAction[] }[] = [];
  state.nodes.forEach((node, id) => {
    if (node.players === 0) return;
    const status = playerStatus(node);
    if (status === 'acting') {
      acting = true;
      const hand = node.hands[currentHandIndex(node)];
      actingNodes.push({
        node: id,
        cards: hand.cards,
        legal: legalActions(hand, { handCount: node.hands.length }, state.config.rules),
      });
    } else if (status === 'awaiting-card') {
      drawing = true;
    }
  });
  if (acting) {
    const next: InfiniteState = {
      ...state,
      phase: 'deciding',
      // Pending decisions are cleared when a window closes, so opening one (and drawing a card,
      // which may open one) costs nothing per player.
      window: state.window + 1,
    };
    return {
      state: next,
      effects: [
        event('decision-window-opened', { window: next.window, hands: actingNodes }),
        timer('decision', state.config.decisionWindowMs, next.window),
      ],
    };
  }
  if (drawing) {
    const next: InfiniteState = { ...state, phase: 'drawing' };
    return { state: next, effects: [prompt(next)] };
  }
  return dealerTurn(state);
}

/** Each drawn card goes to every live hand still drawing: once per trie node, not per player. */
function drawCommon(state: InfiniteState, card: CardCode): InfiniteStep {
  const rules = state.config.rules;
  const nodes = state.nodes.slice();
  const took: number[] = [];
  nodes.forEach((node, id) => {
    if (node.players > 0 && playerStatus(node) === 'awaiting-card') {
      nodes[id] = { ...node, hands: dealToPlayer(node, card, rules).hands };
      took.push(id);
    }
  });
  const next: InfiniteState = { ...state, nodes, commonDraws: [...state.commonDraws, card] };
  return continueAfter(advance(next), [
    event('common-card-drawn', { position: next.commonDraws.length, card, nodes: took }),
  ]);
}

/**
 * The dealer reveals and draws while some hand can still be beaten or paid differently (a live
 * hand that is not bust, surrendered or BJ) or a Bust Bonus bet depends on the dealer's cards.
 */
function dealerTurn(state: InfiniteState): InfiniteStep {
  const revealed = revealHoleCard(state);
  const next: InfiniteState = { ...revealed.state, phase: 'dealer' };
  return continueAfter(dealerNext(next), revealed.effects);
}

function dealerNext(state: InfiniteState): InfiniteStep {
  const cards = infiniteDealerCards(state);
  const needed =
    !isBlackjack(cards) &&
    dealerMustHit(cards, state.config.rules) &&
    (state.sideTotals['bust-bonus'] > 0 || anyLiveHand(state));
  if (needed) return { state, effects: [prompt(state)] };
  return settle(state);
}

function anyLiveHand(state: InfiniteState): boolean {
  return state.nodes.some(
    (node) =>
      node.players > 0 &&
      node.hands.some(
        (h) =>
          !h.surrendered && handTotal(h.cards).total <= 21 && !isBlackjack(h.cards, h.fromSplit),
      ),
  );
}

function drawDealer(state: InfiniteState, card: CardCode): InfiniteStep {
  const next: InfiniteState = {
    ...state,
    dealer: { ...state.dealer, draws: [...state.dealer.draws, card] },
  };
  return continueAfter(dealerNext(next), [
    event('dealer-card-drawn', { card, dealerTotal: handTotal(infiniteDealerCards(next)).total }),
  ]);
}

function settle(state: InfiniteState): InfiniteStep {
  const summary = settleInfiniteRound(state);
  const next: InfiniteState = { ...state, phase: 'settled', settlement: summary };
  return {
    state: next,
    effects: [
      event('round-settled', {
        roundId: state.roundId,
        dealerCards: summary.dealerCards,
        side: summary.side,
        insuranceWins: summary.insuranceWins,
        nodes: summary.nodeRules
          .map((rules, id) =>
            rules ? { node: id, path: infiniteNodePath(state, id), hands: rules } : null,
          )
          .filter((x) => x !== null),
        totals: summary.totals,
      }),
    ],
  };
}

// ---- decisions -----------------------------------------------------------------------------------

function decide(
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
    if (i < 0) problem = { code: 'unknown-player', message: `${d.playerId} has no bet this round` };
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

function timeout(state: InfiniteState, name: TimerName, window: number): InfiniteStep {
  if (window !== state.window)
    return reject('wrong-phase', `stale ${name} timer (window ${window})`);
  if (name === 'betting') return closeBetting(state);
  return closeWindow(state);
}

function closeWindow(state: InfiniteState): InfiniteStep {
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

// ---- void ----------------------------------------------------------------------------------------

/** A voided round has no winners and no losers: every bet is refunded. */
function voidRound(state: InfiniteState, reason: string): InfiniteStep {
  if (['idle', 'settled', 'voided'].includes(state.phase)) {
    return reject('round-over', 'there is no round in progress to void');
  }
  const voided: InfiniteState = { ...state, phase: 'voided', voidReason: reason };
  const summary = settleInfiniteRound(voided);
  return {
    state: { ...voided, settlement: summary },
    effects: [event('round-voided', { roundId: state.roundId, reason, totals: summary.totals })],
  };
}

// ---- helpers -------------------------------------------------------------------------------------

function continueAfter(step: InfiniteStep, before: InfiniteEffect[]): InfiniteStep {
  if ('rejected' in step) return step;
  return { state: step.state, effects: [...before, ...step.effects] };
}

function timer(name: TimerName, durationMs: number, window: number): TimerEffect {
  return { type: 'set-timer', timer: name, durationMs, window };
}

function prompt(state: InfiniteState): PromptEffect {
  const slot = infiniteExpectedCard(state);
  const what = !slot
    ? 'wait'
    : slot.slot === 'player'
      ? `deal player card ${slot.position}`
      : slot.slot === 'common-draw'
        ? `draw card ${slot.position} to the common area`
        : slot.slot === 'dealer-draw'
          ? `draw dealer card ${slot.position}`
          : `deal the dealer ${slot.slot === 'dealer-up' ? 'up card' : 'hole card (face down)'}`;
  return { type: 'prompt', message: what };
}

/** The decisions that lead from the root to a node, e.g. ['split', 'hit', 'stand']. */
export function infiniteNodePath(state: InfiniteState, id: number): string[] {
  const path: string[] = [];
  for (let k = id; k > 0; k = state.nodes[k].parent) path.unshift(state.nodes[k].action as string);
  return path;
}
