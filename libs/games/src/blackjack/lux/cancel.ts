import { event, reject } from '../core/engine';
import { emptySeat, seatAt, withSeat } from './seats';
import { LuxSeat, LuxSettlementRecord, LuxState } from './state';
import { LuxEffect, LuxStep } from './step';

/** The bet types a platform cancels on a seat (as it placed them). */
export type LuxCancelledBet = 'main' | 'bet-behind' | 'pairs';

/** Remembers a cancelled bet: the same player does not place it again this round. */
export const luxCancelKey = (seat: number, playerId: string, betType: string): string =>
  `${seat}/${playerId}/${betType}`;

type Part = { betType: string; amount: number };

/**
 * A platform takes back its player's bet on a seat while betting is open (games.md §3 and the
 * platforms' wallet model). `main` cancels the seat bet with its pairs: the seat then has no valid
 * seat bet, so, as when a seat bet fails, the player is removed from the seat and every bet behind
 * and pair bet on that seat is returned (BetsReturned; settled `returned` with the round).
 * `bet-behind` cancels a bet behind with its pairs; `pairs` the player's pair bet alone.
 */
export function cancelLuxBet(
  state: LuxState,
  seat: number,
  playerId: string,
  betType: LuxCancelledBet,
): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const s = seatAt(state, seat);
  const taken = s ? takeBack(s, playerId, betType) : null;
  if (!s || !taken) {
    return state.cancelled?.includes(luxCancelKey(seat, playerId, betType))
      ? reject(
          'bet-already-cancelled',
          `${playerId}'s ${betType} bet on seat ${seat} was cancelled`,
        )
      : reject('unknown-bet', `${playerId} has no ${betType} bet on seat ${seat}`);
  }
  const cancelled = [
    ...(state.cancelled ?? []),
    ...taken.parts.map((p) => luxCancelKey(seat, playerId, p.betType)),
  ];
  const effects: LuxEffect[] = [event('bet-cancelled', { seat, playerId, parts: taken.parts })];
  let next: LuxState = { ...withSeat(state, taken.seat), cancelled };
  if (betType === 'main') {
    const returned = returnedBehind(taken.seat);
    effects.push(
      event('seat-removed', { seat, playerId, reason: 'seat-bet-cancelled' }),
      ...(returned.length ? [event('bets-returned', { bets: returned })] : []),
    );
    const records = [...(state.settlement?.records ?? []), ...returned];
    next = {
      ...withSeat(next, emptySeat(seat)),
      settlement: { voided: false, dealerCards: [], records },
    };
  }
  return { state: next, effects };
}

/** The seat without the player's bet of that type, and the parts taken back; null: no such bet. */
function takeBack(
  s: LuxSeat,
  playerId: string,
  betType: LuxCancelledBet,
): { seat: LuxSeat; parts: Part[] } | null {
  const parts = (main: [string, number], pairs: number): Part[] =>
    [main, ['pairs', pairs] as [string, number]]
      .filter(([, amount]) => amount > 0)
      .map(([t, amount]) => ({ betType: t, amount }));
  const seated = s.playerId === playerId && s.bet?.status === 'placed' ? s.bet : null;
  const behind = s.behind.find((b) => b.playerId === playerId);
  if (betType === 'main' && seated) {
    return { seat: { ...s, bet: null }, parts: parts(['main', seated.main], seated.pairs) };
  }
  if (betType === 'bet-behind' && behind && behind.main > 0) {
    const rest = s.behind.filter((b) => b !== behind);
    return {
      seat: { ...s, behind: rest },
      parts: parts(['bet-behind', behind.main], behind.pairs),
    };
  }
  if (betType !== 'pairs') return null;
  if (seated && seated.pairs > 0) {
    return {
      seat: { ...s, bet: { ...seated, pairs: 0 } },
      parts: parts(['pairs', 0], seated.pairs),
    };
  }
  if (!behind || behind.pairs === 0) return null;
  const rest = s.behind.filter((b) => b !== behind);
  const kept = behind.main > 0 ? [...rest, { ...behind, pairs: 0 }] : rest;
  return { seat: { ...s, behind: kept }, parts: parts(['pairs', 0], behind.pairs) };
}

/** The bets behind a seat whose seat bet is gone: returned whole (games.md §3). */
function returnedBehind(s: LuxSeat): LuxSettlementRecord[] {
  const records: LuxSettlementRecord[] = [];
  for (const b of s.behind) {
    for (const [bet, amount] of [
      ['main', b.main],
      ['pairs', b.pairs],
    ] as const) {
      if (amount <= 0) continue;
      records.push({
        playerId: b.playerId,
        seat: s.seat,
        role: 'behind',
        bet,
        staked: amount,
        refunded: amount,
        paid: 0,
        houseResult: 0,
        result: 'returned',
        rounding: [],
      });
    }
  }
  return records;
}
