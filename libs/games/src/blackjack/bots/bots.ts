import { CardCode } from '@studio/cards';
import { cardValue, handTotal, isSplittablePair } from '../core/hand';
import { PlayerAction } from '../core/player-hands';
import { BlackjackRules } from '../core/rules';
import { EUROPEAN_ALL_STAKES_STRATEGY } from '../strategy/generated/european-all-stakes';
import { EUROPEAN_ORIGINAL_BETS_ONLY_STRATEGY } from '../strategy/generated/european-original-bets-only';
import { INFINITE_STRATEGY } from '../strategy/generated/infinite';
import { LUX_STRATEGY } from '../strategy/generated/lux';
import { PairKey, StrategyCode, StrategyTable } from '../strategy/table';
import { normalChart } from './normal-chart';
import { BotDifficulty, BotView } from './view';

/**
 * Bots decide from a BotView alone and always answer with one of the view's legal actions.
 * - easy: hits below 17, otherwise stands;
 * - normal: the textbook chart (hard / soft / pair by the dealer's up card);
 * - hard: the exact basic strategy generated for the table's own rules.
 */
export function botDecision(difficulty: BotDifficulty, view: BotView): PlayerAction {
  const hand = view.hands[view.currentHand];
  if (!hand || view.legalActions.length === 0) {
    throw new Error('botDecision: the view has no decision to take'); // caller bug, not input
  }
  if (difficulty === 'easy') {
    return pickLegal(view, handTotal(hand.cards).total < 17 ? ['hit', 'stand'] : ['stand']);
  }
  const table = difficulty === 'hard' ? exactStrategyFor(view.rules) : normalChart(view.rules);
  return tableDecision(table, view);
}

/** The generated exact strategy matching the table's rules (the European table's two options). */
export function exactStrategyFor(rules: BlackjackRules): StrategyTable {
  if (rules.variant === 'european-practice') {
    return rules.noPeekDealerBlackjack === 'original-bets-only'
      ? EUROPEAN_ORIGINAL_BETS_ONLY_STRATEGY
      : EUROPEAN_ALL_STAKES_STRATEGY;
  }
  return rules.variant === 'lux' ? LUX_STRATEGY : INFINITE_STRATEGY;
}

/** Reads a strategy table for the current hand and falls back when the preferred action is not legal. */
export function tableDecision(table: StrategyTable, view: BotView): PlayerAction {
  const hand = view.hands[view.currentHand];
  const code = strategyCode(table, hand.cards, view.dealerUp, view.legalActions);
  return pickLegal(view, preferences(code));
}

export function strategyCode(
  table: StrategyTable,
  cards: readonly CardCode[],
  dealerUp: CardCode,
  legal: readonly PlayerAction[],
): StrategyCode {
  const upValue = cardValue(dealerUp);
  const col = upValue === 1 ? 9 : upValue - 2;
  if (legal.includes('split') && isSplittablePair(cards, 'value')) {
    return table.pairs[pairKeyOf(cards[0])][col];
  }
  const { total, soft } = handTotal(cards);
  if (total >= 21) return 'S';
  return soft ? table.soft[total][col] : table.hard[Math.max(4, total)][col];
}

function pairKeyOf(card: CardCode): PairKey {
  const v = cardValue(card);
  return v === 1 ? 'A' : v === 10 ? 'T' : (String(v) as PairKey);
}

function preferences(code: StrategyCode): PlayerAction[] {
  switch (code) {
    case 'S':
      return ['stand'];
    case 'H':
      return ['hit', 'stand'];
    case 'Dh':
      return ['double', 'hit', 'stand'];
    case 'Ds':
      return ['double', 'stand'];
    case 'P':
      return ['split', 'hit', 'stand'];
    case 'Rh':
      return ['surrender', 'hit', 'stand'];
    case 'Rs':
      return ['surrender', 'stand'];
    case 'Rp':
      return ['surrender', 'split', 'hit', 'stand'];
  }
}

/** First preferred action that is legal; stand is legal whenever a decision is asked. */
function pickLegal(view: BotView, wanted: readonly PlayerAction[]): PlayerAction {
  return wanted.find((a) => view.legalActions.includes(a)) ?? view.legalActions[0];
}
