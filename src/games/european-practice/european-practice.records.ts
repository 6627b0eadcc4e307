import type { EuropeanSlot, EuropeanState } from '@studio/games/blackjack';
import type { ExpectedCard, SettlementRecord } from '../game-adapter';
import { fractionSum } from '../blackjack-lux/blackjack-lux.adapter';

/*
 * What the practice table stores of a round: the slot names of its cards, its bet ids, the
 * settlement rows and the hand a decision was for.
 */

/** The slot of the engine's next card: seat slots count the seat's cards (`seat-4/2/5`). */
export function slotName(dealt: ReadonlyArray<{ slot: string }>, slot: EuropeanSlot): ExpectedCard {
  switch (slot.to) {
    case 'seat':
      return seatSlot(dealt, slot.seat, slot.hand);
    case 'dealer-up':
      return { slot: 'dealer-up', label: 'Dealer up card, face up' };
    case 'dealer-hidden':
      return { slot: 'dealer-hole', label: 'Dealer hidden card, face down' };
    case 'dealer': {
      const n = dealt.filter((d) => d.slot.startsWith('dealer')).length + 1;
      return { slot: `dealer/${n}`, label: `Dealer card ${n}` };
    }
  }
}

/** Slots count the seat's cards (`seat-4/2/5`: the seat's fifth card, into hand 2): unique. */
function seatSlot(
  dealt: ReadonlyArray<{ slot: string }>,
  seat: number,
  hand: number,
): ExpectedCard {
  const n = dealt.filter((d) => d.slot.startsWith(`seat-${seat}/`)).length + 1;
  return {
    slot: `seat-${seat}/${hand + 1}/${n}`,
    label: `Seat ${seat}${hand > 0 ? ` hand ${hand + 1}` : ''}, the seat's card ${n}`,
  };
}

export function settlementsFrom(
  engine: EuropeanState,
  bets: ReadonlyArray<{ seat: number; playerId: string }>,
  roundId: string,
): SettlementRecord[] {
  return engine.round!.seats.map((s) => {
    const bet = bets.find((b) => b.seat === s.seat)!;
    const hands = s.settlements ?? [];
    const stake = hands.reduce((sum, h) => sum + h.staked, 0);
    const returned = hands.reduce((sum, h) => sum + h.refunded + h.paid, 0);
    return {
      betId: practiceBetIdOf(roundId, bet.playerId, s.seat),
      playerId: bet.playerId,
      betType: 'main',
      spot: String(s.seat),
      stake,
      returned,
      net: returned - stake,
      outcome: hands.map((h) => h.outcome).join(','),
      roundedDown: fractionSum(hands.map((h) => h.rounding)),
    };
  });
}

export function handOf(engine: EuropeanState, seat: number): string {
  const s = engine.round?.seats.find((x) => x.seat === seat);
  const i = s ? s.player.hands.findIndex((h) => h.status !== 'closed') : -1;
  return `${seat}/${i + 1}`;
}

export function practiceBetIdOf(roundId: string, playerId: string, seat: number): string {
  return `${roundId}/${playerId}/seat-${seat}/main`;
}
