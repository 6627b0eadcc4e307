import type { GameAdapter } from './game-adapter';
import { BlackjackLuxAdapter } from './blackjack-lux/blackjack-lux.adapter';
import { EuropeanPracticeAdapter } from './european-practice/european-practice.adapter';
import { InfiniteBlackjackAdapter } from './infinite-blackjack/infinite-blackjack.adapter';
import { PokDengAdapter } from './pok-deng/pok-deng.adapter';
import type { TableRunSettings } from '../tables/table-settings';

/**
 * The game adapter for a table, or undefined for a game the orchestrator cannot drive yet (its
 * table is registered and its scanner records readings, but no rounds run).
 */
export function createGameAdapter(settings: TableRunSettings): GameAdapter | undefined {
  switch (settings.game) {
    case 'pok-deng':
      return new PokDengAdapter({
        bettingWindowMs: settings.bettingWindowMs,
        rules: settings.rules,
      }) as GameAdapter;
    case 'infinite-blackjack':
      return new InfiniteBlackjackAdapter({
        bettingWindowMs: settings.bettingWindowMs,
        decisionWindowMs: settings.decisionWindowMs,
        rules: settings.rules,
      }) as GameAdapter;
    case 'blackjack-lux':
      return new BlackjackLuxAdapter({
        bettingWindowMs: settings.bettingWindowMs,
        decisionWindowMs: settings.decisionWindowMs,
        limits: settings.limits,
        rules: settings.rules,
      }) as GameAdapter;
    case 'european-blackjack-practice':
      return new EuropeanPracticeAdapter({
        bettingWindowMs: settings.bettingWindowMs,
        decisionWindowMs: settings.decisionWindowMs,
        rules: settings.rules,
      }) as GameAdapter;
    default:
      return undefined;
  }
}
