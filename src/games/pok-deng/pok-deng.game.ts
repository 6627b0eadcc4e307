import { POK_DENG_RULES } from '@studio/games/pok-deng';
import type { GameAdapter } from '../game-adapter';
import type { GameDefinition } from '../game-definition';
import { PokDengAdapter } from './pok-deng.adapter';
import { replayPokDeng } from './pok-deng.replay';

export const POK_DENG: GameDefinition = {
  game: 'pok-deng',
  ruleDefaults: POK_DENG_RULES as unknown as Readonly<Record<string, unknown>>,
  // The engine's own bet limits (docs/pok-deng.md), checked by the engine as it takes a bet.
  ruleExtras: ['limits'],
  defaultLimits: { player: { min: 1_000, max: 1_000_000 }, pair: { min: 1_000, max: 100_000 } },
  createAdapter: (settings) =>
    new PokDengAdapter({
      bettingWindowMs: settings.bettingWindowMs,
      rules: settings.rules,
      // A table of several currencies: the engine holds each bet to its currency's limits.
      ...(settings.limitsByCurrency && Object.keys(settings.limitsByCurrency).length > 1
        ? { limitsByCurrency: settings.limitsByCurrency }
        : {}),
    }) as GameAdapter,
  replay: replayPokDeng,
};
