import { PairKey, StrategyCode, StrategyTable } from '../strategy/table';
import { BlackjackRules } from '../core/rules';

/**
 * The "normal" bot's chart: the textbook multi-deck basic strategy (dealer stands on soft 17,
 * double after split, a dealer that peeks), typed in from the usual published chart rather than
 * computed for this table. It ignores that the European dealer does not peek, which is exactly
 * what separates it from the hard bot.
 */
const row = (codes: string): StrategyCode[] => codes.split(' ') as StrategyCode[];

//                    dealer up: 2  3  4  5  6  7  8  9  T  A
const HARD: Record<number, string> = {
  9: 'H Dh Dh Dh Dh H H H H H',
  10: 'Dh Dh Dh Dh Dh Dh Dh Dh H H',
  11: 'Dh Dh Dh Dh Dh Dh Dh Dh Dh H',
  12: 'H H S S S H H H H H',
  13: 'S S S S S H H H H H',
  14: 'S S S S S H H H H H',
  15: 'S S S S S H H H H H',
  16: 'S S S S S H H H H H',
};
const SOFT: Record<number, string> = {
  13: 'H H H Dh Dh H H H H H',
  14: 'H H H Dh Dh H H H H H',
  15: 'H H Dh Dh Dh H H H H H',
  16: 'H H Dh Dh Dh H H H H H',
  17: 'H Dh Dh Dh Dh H H H H H',
  18: 'S Ds Ds Ds Ds S S H H H',
};
const PAIRS: Record<PairKey, string> = {
  A: 'P P P P P P P P P P',
  '2': 'P P P P P P H H H H',
  '3': 'P P P P P P H H H H',
  '4': 'H H H P P H H H H H',
  '5': 'Dh Dh Dh Dh Dh Dh Dh Dh H H',
  '6': 'P P P P P H H H H H',
  '7': 'P P P P P P H H H H',
  '8': 'P P P P P P P P P P',
  '9': 'P P P P P S P P S S',
  T: 'S S S S S S S S S S',
};

export function normalChart(rules: BlackjackRules): StrategyTable {
  const hard: Record<number, StrategyCode[]> = {};
  for (let t = 4; t <= 21; t += 1) {
    hard[t] = row(HARD[t] ?? (t < 9 ? 'H H H H H H H H H H' : 'S S S S S S S S S S'));
  }
  const soft: Record<number, StrategyCode[]> = {};
  for (let t = 12; t <= 21; t += 1) {
    soft[t] = row(SOFT[t] ?? (t < 13 ? 'H H H H H H H H H H' : 'S S S S S S S S S S'));
  }
  const pairs = {} as Record<PairKey, StrategyCode[]>;
  for (const [k, v] of Object.entries(PAIRS)) pairs[k as PairKey] = row(v);
  return {
    label: 'textbook-multideck-s17-das-peek',
    rules: {
      decks: rules.decks,
      dealerHitsSoft17: false,
      holeCard: 'peek',
      noPeekLoss: 'all-stakes',
      doubleAfterSplit: true,
      maxHands: rules.maxHands,
      surrender: 'none',
      blackjackPays: 1.5,
    },
    hard,
    soft,
    pairs,
  };
}
