import type { GameKind } from '@studio/contracts';

/**
 * Expected return per unit staked (1 + expected net / stake) of every bet type a table settles,
 * for the rules each game runs with. The figures are the project's own, not published ones:
 * - Pok Deng: the exact PAR sheet (`npm run par:pok-deng`, docs/pok-deng.md). A Player N bet's
 *   settlement records what was deducted (bet + deposit) as its stake, so its figure is the return
 *   per unit deducted, 1 − 5765728/461223945 = 98.75%; Player N Pair 372/415 (a spec checks both
 *   against the sheet);
 * - blackjack: docs/blackjack-verification.md — the main game's calculated return with the game's
 *   rules (EV generator), the exact side-bet returns, insurance as simulated when always taken.
 * A bet type missing here is left out of the comparison (its stakes are counted apart).
 */
export const EXPECTED_RETURNS: Readonly<Record<GameKind, Readonly<Record<string, number>>>> = {
  'pok-deng': {
    player: 1 - 5765728 / 461223945,
    pair: 372 / 415,
  },
  'infinite-blackjack': {
    main: 0.9947,
    pairs: 0.966265,
    'bust-bonus': 0.938157,
    'lucky-trio': 0.947219,
    'poker-trio': 0.962961,
    insurance: 0.92462,
  },
  'blackjack-lux': {
    main: 0.99505,
    // A bet behind follows the seated player's hand: the main game's return.
    'bet-behind': 0.99505,
    pairs: 0.971154,
    insurance: 0.92478,
  },
  'european-blackjack-practice': {
    // 99.483%: the calculated return as the practice table plays (6 decks, no peek, DAS, 4 hands).
    main: 0.99483,
  },
};

/**
 * Each game's per-round standard deviation of the net per unit staked, the least spread the band
 * assumes (see hold-band.ts). Pok Deng: the PAR sheet's variance of the Player N bet, 2.0251 per
 * unit bet, is 0.7115 per unit deducted (a stake is bet + deposit, 2 units). Blackjack: the
 * usual 1.15 per unit of a main bet played by basic strategy (doubles and splits widen it).
 */
export const SD_FLOORS: Readonly<Record<GameKind, number>> = {
  'pok-deng': Math.sqrt(2.0250998811) / 2,
  'infinite-blackjack': 1.15,
  'blackjack-lux': 1.15,
  'european-blackjack-practice': 1.15,
};

/**
 * The most a bet type can return per unit staked (stake as the settlement records it), from the
 * game's best payout: a band is never drawn beyond what can happen. Pok Deng: a Player bet won
 * 2:1 returns the deduction (bet + deposit) plus twice the bet, 2 per unit deducted; a Pair 11:1
 * returns 12. Blackjack: a blackjack 3:2 returns 2.5 (a double or split stakes more and wins
 * 1:1); insurance 2:1 returns 3; side bets their top line plus the stake.
 */
export const MAX_RETURNS: Readonly<Record<GameKind, Readonly<Record<string, number>>>> = {
  'pok-deng': { player: 2, pair: 12 },
  'infinite-blackjack': {
    main: 2.5,
    pairs: 31,
    'bust-bonus': 251,
    'lucky-trio': 201,
    'poker-trio': 101,
    insurance: 3,
  },
  'blackjack-lux': { main: 2.5, 'bet-behind': 2.5, pairs: 51, insurance: 3 },
  'european-blackjack-practice': { main: 2.5 },
};

/** Where the expected return comes from, in words for the pit (shown next to the figure). */
export const EXPECTED_RETURN_SOURCES: Readonly<Record<GameKind, string>> = {
  'pok-deng': 'exact: every possible deal of the 8-deck shoe counted',
  'infinite-blackjack': 'calculated from the game’s rules with the best play; side bets exact',
  'blackjack-lux': 'calculated from the game’s rules with the best play; pair bet exact',
  'european-blackjack-practice': 'calculated from the practice table’s rules with the best play',
};

export function expectedReturn(game: GameKind, betType: string): number | undefined {
  return figureOf(EXPECTED_RETURNS[game], betType);
}

/** The most a bet type of the game can return per unit staked (undefined: not rated). */
export function maxReturn(game: GameKind, betType: string): number | undefined {
  return figureOf(MAX_RETURNS[game], betType);
}

function figureOf(figures: Readonly<Record<string, number>>, betType: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(figures, betType) ? figures[betType] : undefined;
}
