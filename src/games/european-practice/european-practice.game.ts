import { blackjackRuleDefaults } from '../blackjack/rule-defaults';
import type { GameAdapter } from '../game-adapter';
import type { GameDefinition } from '../game-definition';
import { EuropeanPracticeAdapter } from './european-practice.adapter';
import { replayPractice } from './european-practice.replay';

export const EUROPEAN_PRACTICE: GameDefinition = {
  game: 'european-blackjack-practice',
  ruleDefaults: blackjackRuleDefaults('european-practice'),
  ruleExtras: ['bots'],
  defaultLimits: { main: { min: 1, max: 1_000 } },
  createAdapter: (settings) =>
    new EuropeanPracticeAdapter({
      bettingWindowMs: settings.bettingWindowMs,
      decisionWindowMs: settings.decisionWindowMs,
      rules: settings.rules,
    }) as GameAdapter,
  replay: replayPractice,
  // Bots decide inside the engine: their decisions on record must be the ones replayed.
  comparesEngineDecisions: true,
  // A voided round shows its dealer's hole card (EuropeanPracticeAdapter.voidRound).
  voidTurnsOver: ['dealer-hole'],
};
