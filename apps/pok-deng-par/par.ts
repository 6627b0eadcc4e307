import { cardFromIndex, CARDS_PER_DECK } from '@studio/cards';
import {
  evaluateHand,
  HandEvaluation,
  PlayerBetOutcome,
  PokDengRules,
  settlePairBet,
  settlePlayerBet,
} from '@studio/games/pok-deng';

/**
 * Exact return ("PAR sheet") of the Pok Deng Player N and Player N Pair bets: every ordered
 * two-card Player hand and two-card Banker hand drawn without replacement from the shoe, weighted
 * by how many ways the physical cards can be drawn. Outcomes come from the engine's own settlement
 * functions, so the sheet checks the engine rather than a second implementation of the rules.
 *
 * Other hands at the table do not change these figures: by exchangeability the (Player N, Banker)
 * pair is distributed like the first four cards of a full shoe.
 */

/** An exact non-negative rational; numerators and denominators are safe integers. */
export interface Fraction {
  readonly numerator: string;
  readonly denominator: string;
  /** Rounded to 10 decimal places. */
  readonly decimal: string;
}

export interface OutcomeLine<O extends string> {
  readonly outcome: O;
  /** What the player gains per unit bet in this outcome (negative: loses). */
  readonly netPerUnitBet: number;
  /** Weighted count of ordered card draws (cards told apart by their deck) giving this outcome. */
  readonly ways: number;
  readonly probability: Fraction;
}

export interface BetReport<O extends string> {
  readonly outcomes: readonly OutcomeLine<O>[];
  /** Amount deducted from the balance per unit bet (2 for Player N: bet + deposit; 1 for Pair). */
  readonly deductedPerUnitBet: number;
  readonly expectedNetPerUnitBet: SignedFraction;
  readonly returnPerUnitBet: SignedFraction;
  readonly expectedNetPerUnitDeducted: SignedFraction;
  readonly returnPerUnitDeducted: SignedFraction;
  /** Variance of the net result per unit bet. */
  readonly variancePerUnitBet: SignedFraction;
}

export interface SignedFraction extends Fraction {
  readonly negative: boolean;
}

export interface ParSheet {
  readonly deckCount: number;
  readonly cardsInShoe: number;
  /** (52N)(52N−1)(52N−2)(52N−3): ordered draws of Player N's two cards and the Banker's two. */
  readonly totalWays: number;
  readonly playerBet: BetReport<PlayerBetOutcome>;
  readonly pairBet: BetReport<'pair-wins' | 'pair-loses'>;
}

const PLAYER_OUTCOMES: readonly PlayerBetOutcome[] = [
  'player-wins-special-pattern',
  'player-wins-8-or-9-flush-or-pair-against-0-or-6',
  'player-wins-special-pattern-banker-0-or-6',
  'player-wins',
  'tie',
  'banker-wins',
  'banker-wins-special-pattern',
];

export function computeParSheet(rules: PokDengRules, deckCount = rules.deckCount): ParSheet {
  const hands = CARDS_PER_DECK * CARDS_PER_DECK;
  // Distinct evaluations are few; outcomes are decided once per pair of distinct evaluations.
  const classOf = new Int32Array(hands);
  const classes: HandEvaluation[] = [];
  const classKeys = new Map<string, number>();
  for (let a = 0; a < CARDS_PER_DECK; a += 1) {
    for (let b = 0; b < CARDS_PER_DECK; b += 1) {
      const e = evaluateHand(cardFromIndex(a), cardFromIndex(b));
      const key = JSON.stringify(e);
      let id = classKeys.get(key);
      if (id === undefined) {
        id = classes.length;
        classes.push(e);
        classKeys.set(key, id);
      }
      classOf[a * CARDS_PER_DECK + b] = id;
    }
  }
  const n = classes.length;
  const outcomeOf = new Int32Array(n * n);
  const netOf = new Map<PlayerBetOutcome, number>();
  for (let p = 0; p < n; p += 1) {
    for (let k = 0; k < n; k += 1) {
      const s = settlePlayerBet(rules, 1, classes[p], classes[k]);
      if (s.roundedDown.numerator !== 0)
        throw new Error('Ratios with fractions need a larger stake');
      netOf.set(s.outcome, s.net);
      outcomeOf[p * n + k] = PLAYER_OUTCOMES.indexOf(s.outcome);
    }
  }

  const ways = new Array<number>(PLAYER_OUTCOMES.length).fill(0);
  let pairWays = 0;
  const copies = deckCount;
  for (let a = 0; a < CARDS_PER_DECK; a += 1) {
    for (let b = 0; b < CARDS_PER_DECK; b += 1) {
      const wb = copies * (copies - (b === a ? 1 : 0));
      if (wb === 0) continue;
      const playerClass = classOf[a * CARDS_PER_DECK + b] * n;
      const row = new Array<number>(PLAYER_OUTCOMES.length).fill(0);
      for (let c = 0; c < CARDS_PER_DECK; c += 1) {
        const wc = copies - (c === a ? 1 : 0) - (c === b ? 1 : 0);
        if (wc <= 0) continue;
        const cBase = c * CARDS_PER_DECK;
        for (let d = 0; d < CARDS_PER_DECK; d += 1) {
          const wd = copies - (d === a ? 1 : 0) - (d === b ? 1 : 0) - (d === c ? 1 : 0);
          if (wd <= 0) continue;
          row[outcomeOf[playerClass + classOf[cBase + d]]] += wc * wd;
        }
      }
      let rowTotal = 0;
      for (let o = 0; o < row.length; o += 1) {
        ways[o] += wb * row[o];
        rowTotal += row[o];
      }
      if (a % 13 === b % 13) pairWays += wb * rowTotal;
    }
  }

  const cardsInShoe = CARDS_PER_DECK * deckCount;
  const totalWays = cardsInShoe * (cardsInShoe - 1) * (cardsInShoe - 2) * (cardsInShoe - 3);
  const sum = ways.reduce((x, y) => x + y, 0);
  if (!Number.isSafeInteger(totalWays) || sum !== totalWays) {
    throw new Error(`Enumeration lost draws: ${sum} of ${totalWays}`);
  }

  const playerLines = PLAYER_OUTCOMES.map((outcome, i) => ({
    outcome,
    netPerUnitBet: netOf.get(outcome) ?? 0,
    ways: ways[i],
  }));
  const pairWin = settlePairBet(rules, 1, { ...classes[0], pair: true });
  const pairLose = settlePairBet(rules, 1, { ...classes[0], pair: false });
  const pairLines = [
    { outcome: 'pair-wins' as const, netPerUnitBet: pairWin.net, ways: pairWays },
    { outcome: 'pair-loses' as const, netPerUnitBet: pairLose.net, ways: totalWays - pairWays },
  ];
  return {
    deckCount,
    cardsInShoe,
    totalWays,
    playerBet: betReport(playerLines, totalWays, 1 + rules.depositMultiple),
    pairBet: betReport(pairLines, totalWays, 1),
  };
}

function betReport<O extends string>(
  lines: readonly { outcome: O; netPerUnitBet: number; ways: number }[],
  totalWays: number,
  deductedPerUnitBet: number,
): BetReport<O> {
  const total = BigInt(totalWays);
  // Sums of ways × net can pass 2^53: BigInt keeps them exact.
  const netWays = lines.reduce((acc, l) => acc + BigInt(l.ways) * BigInt(l.netPerUnitBet), 0n);
  const squareWays = lines.reduce(
    (acc, l) => acc + BigInt(l.ways) * BigInt(l.netPerUnitBet) ** 2n,
    0n,
  );
  const deducted = BigInt(deductedPerUnitBet);
  // Var = E[X²] − E[X]² = (S2·T − S1²) / T².
  const variance = fraction(squareWays * total - netWays * netWays, total * total);
  return {
    outcomes: lines.map((l) => ({ ...l, probability: fraction(BigInt(l.ways), total) })),
    deductedPerUnitBet,
    expectedNetPerUnitBet: fraction(netWays, total),
    returnPerUnitBet: fraction(total + netWays, total),
    expectedNetPerUnitDeducted: fraction(netWays, total * deducted),
    returnPerUnitDeducted: fraction(total * deducted + netWays, total * deducted),
    variancePerUnitBet: variance,
  };
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** An exact fraction, reduced, with its value rounded half-up to 10 decimal places. */
export function fraction(numerator: bigint, denominator: bigint): SignedFraction {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const g = gcd(magnitude, denominator) || 1n;
  const num = magnitude / g;
  const den = denominator / g;
  const scale = 10n ** 10n;
  const scaled = (num * scale * 2n + den) / (den * 2n);
  const whole = scaled / scale;
  const frac = (scaled % scale).toString().padStart(10, '0');
  return {
    negative,
    numerator: `${negative ? '-' : ''}${num}`,
    denominator: `${den}`,
    decimal: `${negative ? '-' : ''}${whole}.${frac}`,
  };
}

/** A fraction as a percentage with the given decimals, e.g. "98.75%" (half-up rounding). */
export function percent(f: Fraction, decimals: number): string {
  const negative = f.numerator.startsWith('-');
  const num = BigInt(negative ? f.numerator.slice(1) : f.numerator);
  const den = BigInt(f.denominator);
  const scale = 10n ** BigInt(decimals);
  const scaled = (num * 100n * scale * 2n + den) / (den * 2n);
  const whole = scaled / scale;
  const rest = decimals > 0 ? `.${(scaled % scale).toString().padStart(decimals, '0')}` : '';
  return `${negative && scaled !== 0n ? '-' : ''}${whole}${rest}%`;
}
