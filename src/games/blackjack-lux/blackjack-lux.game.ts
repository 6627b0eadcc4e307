import { DEFAULT_LUX_CONFIG } from '@studio/games/blackjack';
import { blackjackRuleDefaults } from '../blackjack/rule-defaults';
import type { GameAdapter } from '../game-adapter';
import type { GameDefinition } from '../game-definition';
import { BlackjackLuxAdapter } from './blackjack-lux.adapter';
import { replayLux } from './blackjack-lux.replay';

export const BLACKJACK_LUX: GameDefinition = {
  game: 'blackjack-lux',
  ruleDefaults: {
    ...blackjackRuleDefaults('lux'),
    maxSeatsPerPlayer: DEFAULT_LUX_CONFIG.maxSeatsPerPlayer,
  },
  defaultLimits: {
    main: { min: 500, max: 1_000_000 },
    'bet-behind': { min: 100, max: 500_000 },
    pairs: { min: 100, max: 50_000 },
  },
  createAdapter: (settings) =>
    new BlackjackLuxAdapter({
      bettingWindowMs: settings.bettingWindowMs,
      decisionWindowMs: settings.decisionWindowMs,
      limits: settings.limits,
      limitsByCurrency: settings.limitsByCurrency,
      rules: settings.rules,
    }) as GameAdapter,
  replay: replayLux,
};
