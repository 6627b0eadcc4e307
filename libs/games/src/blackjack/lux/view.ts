import { CardCode } from '@studio/cards';
import { handTotal } from '../core/hand';
import { currentSeat } from './engine';
import { LuxPhase, LuxState } from './state';

/**
 * What a player (or bot, or platform) may see of a Lux table: every seat's cards are face up;
 * the dealer's hole card appears only once revealed at the table.
 */
export interface LuxPublicView {
  readonly roundId: string | null;
  readonly phase: LuxPhase;
  readonly turn: number | null;
  readonly dealer: { readonly cards: readonly CardCode[]; readonly total: number | null };
  readonly seats: readonly {
    readonly seat: number;
    readonly playerId: string | null;
    readonly active: boolean;
    readonly hands: readonly { cards: readonly CardCode[]; stake: number; total: number }[];
    readonly behind: readonly {
      playerId: string;
      main: number;
      pairs: number;
      stakes: readonly number[];
    }[];
  }[];
}

export function luxVisibleDealerCards(state: LuxState): CardCode[] {
  const { up, hole, holeRevealed, draws } = state.dealer;
  if (!up) return [];
  return holeRevealed && hole ? [up, hole, ...draws] : [up];
}

export function luxPublicView(state: LuxState): LuxPublicView {
  const dealer = luxVisibleDealerCards(state);
  return {
    roundId: state.roundId,
    phase: state.phase,
    turn: state.phase === 'playing' ? (currentSeat(state)?.seat ?? null) : null,
    dealer: { cards: dealer, total: dealer.length ? handTotal(dealer).total : null },
    seats: state.seats.map((s) => ({
      seat: s.seat,
      playerId: s.playerId,
      active: s.active,
      hands: s.hands.map((h) => ({
        cards: h.cards,
        stake: h.stake,
        total: handTotal(h.cards).total,
      })),
      behind: s.behind.map((b) => ({
        playerId: b.playerId,
        main: b.main,
        pairs: b.pairs,
        stakes: b.stakes,
      })),
    })),
  };
}
