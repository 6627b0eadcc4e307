import { CardCode, cardCode, parseCardCode } from '@studio/cards';
import { dealerPeeks, insuranceOffered, revealHoleCard } from '../core/dealer';
import { event, reject } from '../core/engine';
import { isBlackjack } from '../core/hand';
import {
  currentHandIndex,
  dealToPlayer,
  legalActions,
  PlayerAction,
  playerStatus,
} from '../core/player-hands';
import { infiniteExpectedCard, prompt } from './expected-card';
import { dealerTurn, drawDealer, settle } from './round-end';
import { InfiniteState } from './state';
import { continueAfter, InfiniteEffect, InfiniteStep, timer } from './step';

// ---- cards: the initial deal, the dealer's peek and the common draws ---------------------------

export function applyCard(state: InfiniteState, text: string): InfiniteStep {
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
export function afterInsurance(state: InfiniteState): InfiniteStep {
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
export function advance(state: InfiniteState): InfiniteStep {
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
