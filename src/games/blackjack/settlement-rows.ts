import type { SettlementRecord } from '../game-adapter';

/** Where a settled bet came from: its id, whose it is, its type and its spot or seat. */
export type SettledBet = Pick<SettlementRecord, 'betId' | 'playerId' | 'betType' | 'spot'>;

/**
 * A settled bet as the table stores it: what came back (refund and winnings) and the net for the
 * player. `outcome` is the engine's result as text: one per hand, comma-separated, for a main bet.
 */
export function settlementRow(
  bet: SettledBet,
  money: { readonly staked: number; readonly refunded: number; readonly paid: number },
  outcome: string,
  roundedDown: string,
): SettlementRecord {
  const returned = money.refunded + money.paid;
  return {
    betId: bet.betId,
    playerId: bet.playerId,
    betType: bet.betType,
    spot: bet.spot,
    stake: money.staked,
    returned,
    net: returned - money.staked,
    outcome,
    roundedDown,
  };
}

/** An engine's result of a bet as text: `win,lose` for a split main bet, else the one result. */
export function outcomeText(result: unknown): string {
  return Array.isArray(result) ? result.join(',') : String(result);
}

/** Sum of the per-hand rounding fractions of a minor unit, reduced: `1/2`, `1`, or `0`. */
export function fractionSum(parts: readonly { numerator: number; denominator: number }[]): string {
  let num = 0;
  let den = 1;
  for (const p of parts) {
    if (p.numerator === 0) continue;
    num = num * p.denominator + p.numerator * den;
    den *= p.denominator;
    const g = gcd(num, den);
    num /= g;
    den /= g;
  }
  return num === 0 ? '0' : den === 1 ? String(num) : `${num}/${den}`;
}

const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));
