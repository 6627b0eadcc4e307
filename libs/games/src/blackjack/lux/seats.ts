import { Rejection } from '../core/engine';
import { DEFAULT_LUX_CONFIG, LUX_SEAT_COUNT, LuxConfig, LuxSeat, LuxState } from './state';
import { LuxAccount } from './step';

export const emptySeat = (seat: number): LuxSeat => ({
  seat,
  playerId: null,
  roundsWithoutBet: 0,
  bet: null,
  active: false,
  insurance: 0,
  initialCards: [],
  hands: [],
  preDecision: null,
  turnStarted: false,
  behind: [],
});

/** A seat between rounds: the occupant stays, the round's bets and cards go. */
export const clearRound = (s: LuxSeat): LuxSeat => ({
  ...emptySeat(s.seat),
  playerId: s.playerId,
  roundsWithoutBet: s.roundsWithoutBet,
});

export function newLuxTable(config: Partial<LuxConfig> = {}): LuxState {
  return {
    game: 'blackjack-lux',
    config: { ...DEFAULT_LUX_CONFIG, ...config },
    phase: 'idle',
    roundId: null,
    roundOfShoe: 0,
    window: 0,
    seats: Array.from({ length: LUX_SEAT_COUNT }, (_, i) => emptySeat(i + 1)),
    dealOrder: [],
    dealt: 0,
    dealer: { up: null, hole: null, holeRevealed: false, draws: [] },
    insuranceAnswers: {},
    cardCounts: {},
    earlyEnd: null,
    settlement: null,
    voidReason: null,
  };
}

// ---- seat rules (pure functions the orchestrator calls) ------------------------------------------

/** Who may take a seat: real-money accounts, a free seat, at most `maxSeatsPerPlayer` seats. */
export function luxSeatEligibility(
  state: LuxState,
  seat: number,
  account: LuxAccount,
): Rejection | null {
  if (!Number.isInteger(seat) || seat < 1 || seat > LUX_SEAT_COUNT) {
    return { code: 'unknown-seat', message: `seats are numbered 1-${LUX_SEAT_COUNT}` };
  }
  if (account.demo || account.funCurrency) {
    return {
      code: 'seat-not-allowed',
      message: 'demo and for-fun accounts may bet behind but not sit',
    };
  }
  if (state.seats[seat - 1].playerId !== null) {
    return { code: 'seat-taken', message: `seat ${seat} is taken` };
  }
  const held = state.seats.filter((s) => s.playerId === account.playerId).length;
  if (held >= state.config.maxSeatsPerPlayer) {
    return {
      code: 'too-many-seats',
      message: `a player may hold at most ${state.config.maxSeatsPerPlayer} seats`,
    };
  }
  return null;
}

/** Seated players whose balance at the start of the round is below the minimum seat bet. */
export function luxSeatsShortOfBalance(
  state: LuxState,
  balances: Readonly<Record<string, number>>,
): number[] {
  return state.seats
    .filter(
      (s) =>
        s.playerId !== null &&
        balances[s.playerId] !== undefined &&
        balances[s.playerId] < state.config.seatBet.min,
    )
    .map((s) => s.seat);
}

export type LuxSeatVerdict = 'plays' | 'grace' | 'removed-no-valid-bet';

/**
 * What happens to an occupied seat when betting closes (games.md §3, seats): a valid seat bet
 * plays; a refused seat bet (below the minimum, or failed) removes the player at once, with no
 * grace; no seat bet at all sits the round out (the grace round: the player is removed when the
 * next round opens, see `luxSeatsOutOfGrace`).
 */
export function luxSeatVerdict(seat: LuxSeat): LuxSeatVerdict | null {
  if (seat.playerId === null) return null;
  if (seat.bet?.status === 'placed') return 'plays';
  if (seat.bet?.status === 'failed') return 'removed-no-valid-bet';
  return 'grace';
}

/**
 * Seats whose occupant sat the last round out without a seat bet: "may stay for that round but is
 * removed in the round after" (games.md §3), so they are removed as the next round opens, whether
 * or not the player would bet again in it.
 */
export function luxSeatsOutOfGrace(state: LuxState): number[] {
  return state.seats
    .filter((s) => s.playerId !== null && s.roundsWithoutBet >= 1)
    .map((s) => s.seat);
}

export const withSeat = (state: LuxState, seat: LuxSeat): LuxState => ({
  ...state,
  seats: state.seats.map((s) => (s.seat === seat.seat ? seat : s)),
});

export function seatAt(state: LuxState, seat: number): LuxSeat | null {
  return Number.isInteger(seat) && seat >= 1 && seat <= LUX_SEAT_COUNT
    ? state.seats[seat - 1]
    : null;
}

export const roundOver = (state: LuxState) => ['idle', 'settled', 'voided'].includes(state.phase);
export function pairsOffered(state: LuxState): boolean {
  const last = state.config.pairsLastRound;
  return last === null || state.roundOfShoe <= last;
}
