import { blackjackRuleDefaults } from '../blackjack/rule-defaults';
import type { GameAdapter } from '../game-adapter';
import type { GameDefinition } from '../game-definition';
import { InfiniteBlackjackAdapter } from './infinite-blackjack.adapter';
import { replayInfinite } from './infinite-blackjack.replay';

export const INFINITE_BLACKJACK: GameDefinition = {
  game: 'infinite-blackjack',
  ruleDefaults: blackjackRuleDefaults('infinite'),
  defaultLimits: {
    main: { min: 100, max: 500_000 },
    pairs: { min: 100, max: 50_000 },
    'bust-bonus': { min: 100, max: 50_000 },
    'lucky-trio': { min: 100, max: 50_000 },
    'poker-trio': { min: 100, max: 50_000 },
  },
  createAdapter: (settings) =>
    new InfiniteBlackjackAdapter({
      bettingWindowMs: settings.bettingWindowMs,
      decisionWindowMs: settings.decisionWindowMs,
      rules: settings.rules,
    }) as GameAdapter,
  replay: replayInfinite,
  // Each accepted decision is chained as its row is stored (DecisionsAccepted).
  chainsDecisionRows: true,
  // Its player hands are the common hand's nodes, owned by "2 players: stand" (adapter.hands).
  sharedPlayerHands: true,
};
