import type { GameAdapter } from '../game-adapter';
import type { GameDefinition } from '../game-definition';
import { PokDengAdapter } from './pok-deng.adapter';
import { replayPokDeng } from './pok-deng.replay';

export const POK_DENG: GameDefinition = {
  game: 'pok-deng',
  defaultLimits: { player: { min: 1_000, max: 1_000_000 }, pair: { min: 1_000, max: 100_000 } },
  createAdapter: (settings) =>
    new PokDengAdapter({
      bettingWindowMs: settings.bettingWindowMs,
      rules: settings.rules,
    }) as GameAdapter,
  replay: replayPokDeng,
};
