import type { GameKind } from '@studio/contracts';
import type { GameAdapter } from './game-adapter';
import type { BetLimitRange, GameDefinition, GameTableSettings } from './game-definition';
import { BLACKJACK_LUX } from './blackjack-lux/blackjack-lux.game';
import { EUROPEAN_PRACTICE } from './european-practice/european-practice.game';
import { INFINITE_BLACKJACK } from './infinite-blackjack/infinite-blackjack.game';
import { POK_DENG } from './pok-deng/pok-deng.game';

/**
 * The one registry of games. A Record over GameKind is total: a new game kind does not compile
 * until it is registered, so every configured table has an engine that runs its rounds.
 */
export const GAMES: Readonly<Record<GameKind, GameDefinition>> = {
  'infinite-blackjack': INFINITE_BLACKJACK,
  'blackjack-lux': BLACKJACK_LUX,
  'european-blackjack-practice': EUROPEAN_PRACTICE,
  'pok-deng': POK_DENG,
};

export function gameDefinition(game: GameKind): GameDefinition {
  return GAMES[game];
}

/** The game adapter for a table with these settings. */
export function createGameAdapter(settings: GameTableSettings & { game: GameKind }): GameAdapter {
  return GAMES[settings.game].createAdapter(settings);
}

/** The bet types a game takes, with their default limits in minor units. */
export function defaultLimits(game: GameKind): Readonly<Record<string, BetLimitRange>> {
  return GAMES[game].defaultLimits;
}
