/*
 * What a simulation measures: per bet, the rounds it was placed in and the sum and sum of squares
 * of its net results, from which its return and confidence interval follow.
 */

/** Net result statistics of one bet, per unit staked on it. */
export interface BetStats {
  /** Rounds in which the bet was placed. */
  n: number;
  /** Sum of net results (win +, loss -) per unit staked. */
  sum: number;
  sumSquares: number;
}

export const SIMULATED_BETS = [
  'main',
  'insurance',
  'pairs',
  'bust-bonus',
  'lucky-trio',
  'poker-trio',
  'lux-pairs',
] as const;
export type SimulatedBet = (typeof SIMULATED_BETS)[number];

export type SimulationTotals = Record<SimulatedBet, BetStats>;

export function emptyTotals(): SimulationTotals {
  const out = {} as SimulationTotals;
  for (const b of SIMULATED_BETS) out[b] = { n: 0, sum: 0, sumSquares: 0 };
  return out;
}

export function mergeTotals(into: SimulationTotals, from: SimulationTotals): void {
  for (const b of SIMULATED_BETS) {
    into[b].n += from[b].n;
    into[b].sum += from[b].sum;
    into[b].sumSquares += from[b].sumSquares;
  }
}

/** Return to player and the half-width of its 95% confidence interval, both as fractions. */
export function returnWithInterval(s: BetStats): { rtp: number; halfWidth95: number } {
  if (s.n === 0) return { rtp: NaN, halfWidth95: NaN };
  const mean = s.sum / s.n;
  const variance = Math.max(0, s.sumSquares / s.n - mean * mean);
  return { rtp: 1 + mean, halfWidth95: 1.96 * Math.sqrt(variance / s.n) };
}
