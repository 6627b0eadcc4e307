import type { EuropeanSlot, EuropeanState } from '@studio/games/blackjack';
import type { ExpectedCard, SettlementRecord } from '../game-adapter';
import { dealerSlot } from '../blackjack/dealer-card';
import { fractionSum, settlementRow } from '../blackjack/settlement-rows';

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
      return dealerSlot({ slot: 'dealer-up' });
    case 'dealer-hidden':
      return { slot: 'dealer-hole', label: 'Dealer hidden card, face down' };
    case 'dealer': {
      const n = dealt.filter((d) => d.slot.startsWith('dealer')).length + 1;
      return dealerSlot({ slot: 'dealer-draw', position: n });
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
    const sum = (of: (h: (typeof hands)[number]) => number) =>
      hands.reduce((total, h) => total + of(h), 0);
    return settlementRow(
      {
        betId: practiceBetIdOf(roundId, bet.playerId, s.seat),
        playerId: bet.playerId,
        betType: 'main',
        spot: String(s.seat),
      },
      { staked: sum((h) => h.staked), refunded: sum((h) => h.refunded), paid: sum((h) => h.paid) },
      hands.map((h) => h.outcome).join(','),
      fractionSum(hands.map((h) => h.rounding)),
    );
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
