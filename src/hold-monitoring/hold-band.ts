/**
 * The statistics of live hold monitoring, pure: the observed return of a run of rounds against
 * its expected return with a normal-approximation confidence band, and the rescan rate against
 * the studio's norm. No I/O, no clock.
 */

/** z for a two-sided 99% band. */
export const Z_99 = 2.5758;
/**
 * A table is judged once its 99% band is at most ±25 percentage points around the expected
 * return. Wider, the band says nothing a supervisor can act on (after 8 rounds of blackjack it
 * spans −14% to 213%); at ±25 points a fair table is told from one that returns a quarter of the
 * stakes more or less than its rules (a stacked shoe, a wrong payout ratio), and every game gets
 * there within the default 200 rounds: about 54 rounds of Pok Deng (spread 0.71 per unit
 * deducted), about 141 of blackjack (1.15 per unit), fewer stakes of unequal size need more.
 */
export const MAX_HALF_WIDTH = 0.25;
/**
 * Default lower bound of the per-round standard deviation of the net per unit staked: a run of
 * identical results (a stacked shoe) has a sample deviation of 0, which would make any band a
 * point. Callers pass their game's own figure (expected-returns.ts SD_FLOORS).
 */
export const SD_FLOOR = 1;
/** Rescans per card the studio accepts (a faulty reader or dirty cards read worse). */
export const RESCAN_NORM = 0.05;
/** Readings needed before the rescan rate is judged. */
export const MIN_READINGS = 20;

/** One round: its stake and net on bet types with a known expectation, and that expectation. */
export interface RoundResult {
  roundId: string;
  endedAt: string;
  stake: number;
  net: number;
  /** Expected net of these stakes: Σ stake × (expected return − 1). */
  expectedNet: number;
  /** The most these stakes can return: Σ stake × the bet type's best payout (see MAX_RETURNS). */
  maxReturned: number;
}

export type Verdict = 'too-few-rounds' | 'inside' | 'above' | 'below';

export interface ReturnBand {
  rounds: number;
  /** Integer minor units. */
  stake: number;
  net: number;
  /** Shares (0.975 = 97.5%); null without stakes. */
  observed: number | null;
  expected: number | null;
  /**
   * The 99% band, within what can happen: never below 0% (nobody loses more than the stake),
   * never above the most these stakes can return.
   */
  low: number | null;
  high: number | null;
  /** Half the width of the band before it is clamped: the table is judged at MAX_HALF_WIDTH. */
  halfWidth: number | null;
  /** Per-round standard deviation of the net per unit staked used for the band. */
  sd: number | null;
  /** While too few: about how many rounds the band needs to narrow to MAX_HALF_WIDTH. */
  roundsNeeded: number | null;
  verdict: Verdict;
}

/**
 * Observed return R = 1 + Σnet / Σstake against E = 1 + Σexpected net / Σstake. R is a weighted
 * mean of the per-round results r_i = net_i / stake_i (weights stake_i), so its standard error is
 * sd · √(Σ stake_i²) / Σ stake_i, with sd the sample deviation of r_i (at least `sdFloor`).
 */
export function returnBand(
  rounds: readonly RoundResult[],
  { z = Z_99, sdFloor = SD_FLOOR }: { z?: number; sdFloor?: number } = {},
): ReturnBand {
  const played = rounds.filter((r) => r.stake > 0);
  const stake = sum(played.map((r) => r.stake));
  const net = sum(played.map((r) => r.net));
  if (stake === 0) {
    return {
      rounds: 0,
      stake: 0,
      net: 0,
      observed: null,
      expected: null,
      low: null,
      high: null,
      halfWidth: null,
      sd: null,
      roundsNeeded: null,
      verdict: 'too-few-rounds',
    };
  }
  const observed = 1 + net / stake;
  const expected = 1 + sum(played.map((r) => r.expectedNet)) / stake;
  const perUnit = played.map((r) => r.net / r.stake);
  const sd = Math.max(sdFloor, sampleSd(perUnit));
  const half = (z * sd * Math.sqrt(sum(played.map((r) => r.stake * r.stake)))) / stake;
  const low = Math.max(0, expected - half);
  const high = Math.min(sum(played.map((r) => r.maxReturned)) / stake, expected + half);
  // The band narrows with the square root of the rounds: this many make it narrow enough.
  const judged = half <= MAX_HALF_WIDTH;
  const roundsNeeded = judged ? null : Math.ceil(played.length * (half / MAX_HALF_WIDTH) ** 2);
  const verdict: Verdict = !judged
    ? 'too-few-rounds'
    : observed > high
      ? 'above'
      : observed < low
        ? 'below'
        : 'inside';
  return {
    rounds: played.length,
    stake,
    net,
    observed,
    expected,
    low,
    high,
    halfWidth: half,
    sd,
    roundsNeeded,
    verdict,
  };
}

/** The band after each round in order (oldest first): what the plot draws. */
export function returnSeries(
  rounds: readonly RoundResult[],
  options: { z?: number; sdFloor?: number } = {},
): ReturnBand[] {
  return rounds.map((_, i) => returnBand(rounds.slice(0, i + 1), options));
}

export interface RescanBand {
  readings: number;
  unrecognised: number;
  rate: number | null;
  norm: number;
  /** Lower end of the observed rate's 99% interval: above the norm means a bad reader. */
  low: number | null;
  verdict: 'too-few-readings' | 'inside' | 'above';
}

/** Share of readings that were not recognised, judged against RESCAN_NORM (normal approximation). */
export function rescanBand(cards: number, unrecognised: number, z = Z_99): RescanBand {
  const readings = cards + unrecognised;
  if (readings === 0) {
    return {
      readings,
      unrecognised,
      rate: null,
      norm: RESCAN_NORM,
      low: null,
      verdict: 'too-few-readings',
    };
  }
  const rate = unrecognised / readings;
  const low = rate - z * Math.sqrt((rate * (1 - rate)) / readings);
  return {
    readings,
    unrecognised,
    rate,
    norm: RESCAN_NORM,
    low,
    verdict: readings < MIN_READINGS ? 'too-few-readings' : low > RESCAN_NORM ? 'above' : 'inside',
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function sampleSd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = sum(values) / values.length;
  return Math.sqrt(sum(values.map((v) => (v - mean) ** 2)) / (values.length - 1));
}
