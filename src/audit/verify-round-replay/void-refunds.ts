import type { ReplayMismatch } from '../../games/replay';

/** What a voided round's refund check reads of a bet. */
export interface VoidedBet {
  betId: string;
  status: string;
}

/** What a voided round's refund check reads of a settlement. */
export interface VoidedSettlement {
  betId: string | null;
  stake: number;
  returned: number;
  net: number;
  outcome: string;
}

/**
 * games.md §0: a voided round has no winners and no losers, every bet of the round is refunded.
 * So each settlement of a voided round returns exactly its stake (net 0), and every bet that was
 * not cancelled has its refund. Anything else (a refund cut short, a "refund" paying more than
 * the stake, a bet left without one) is named as a mismatch, as a replay names a wrong payout.
 */
export function voidRefundMismatches(
  bets: readonly VoidedBet[],
  settlements: readonly VoidedSettlement[],
): ReplayMismatch[] {
  const mismatches: ReplayMismatch[] = [];
  settlements.forEach((s, i) => {
    if (s.returned !== s.stake) {
      mismatches.push({
        field: `settlement[${i}].returned`,
        stored: s.returned,
        replayed: s.stake,
      });
    }
    if (s.net !== 0) mismatches.push({ field: `settlement[${i}].net`, stored: s.net, replayed: 0 });
  });
  const refunded = new Set(settlements.map((s) => s.betId));
  for (const bet of bets) {
    if (bet.status === 'cancelled' || refunded.has(bet.betId)) continue;
    mismatches.push({ field: `bet ${bet.betId} refund`, stored: null, replayed: 'refund' });
  }
  return mismatches;
}
