import { event, reject, Rejection } from '../core/engine';
import { isMinorUnits } from '../core/money';
import { newPlayerHands } from '../core/player-hands';
import { prompt } from './expected-card';
import {
  clearRound,
  emptySeat,
  luxSeatEligibility,
  luxSeatsOutOfGrace,
  luxSeatsShortOfBalance,
  luxSeatVerdict,
  newLuxTable,
  pairsOffered,
  roundOver,
  seatAt,
  withSeat,
} from './seats';
import {
  LuxBehindBet,
  LuxDealSlot,
  luxLimitsIn,
  LuxSeat,
  LuxSettlementRecord,
  LuxState,
} from './state';
import { LuxAccount, LuxEffect, LuxSeatBetRefusal, LuxStep, timer } from './step';

// ---- seats and betting: opening the round, bets on and behind seats, closing the betting -------

export function openBetting(
  state: LuxState,
  roundId: string,
  roundOfShoe: number,
  balances: Readonly<Record<string, number>>,
): LuxStep {
  if (!roundOver(state)) return reject('wrong-phase', `a round is in progress (${state.phase})`);
  const short = new Set(luxSeatsShortOfBalance(state, balances));
  const outOfGrace = new Set(luxSeatsOutOfGrace(state));
  const effects: LuxEffect[] = [];
  const seats = state.seats.map((s) => {
    const reason = short.has(s.seat)
      ? 'balance-below-minimum'
      : outOfGrace.has(s.seat)
        ? 'no-seat-bet-last-round'
        : null;
    if (reason) {
      effects.push(event('seat-removed', { seat: s.seat, playerId: s.playerId, reason }));
      return emptySeat(s.seat);
    }
    return clearRound(s);
  });
  const fresh = newLuxTable(state.config);
  const next: LuxState = { ...fresh, seats, phase: 'betting', roundId, roundOfShoe, window: 1 };
  effects.push(
    event('betting-opened', { roundId, roundOfShoe, pairsOffered: pairsOffered(next) }),
    timer('betting', state.config.bettingWindowMs, next.window),
  );
  return { state: next, effects };
}
export function takeSeat(state: LuxState, seat: number, account: LuxAccount): LuxStep {
  if (!roundOver(state) && state.phase !== 'betting') {
    return reject('wrong-phase', 'seats are taken between rounds or while betting is open');
  }
  const problem = luxSeatEligibility(state, seat, account);
  if (problem) return { rejected: problem };
  const next = withSeat(state, { ...emptySeat(seat), playerId: account.playerId });
  return { state: next, effects: [event('seat-taken', { seat, playerId: account.playerId })] };
}

export function leaveSeat(state: LuxState, seat: number, playerId: string): LuxStep {
  const s = seatAt(state, seat);
  if (!s) return reject('unknown-seat', `no seat ${seat}`);
  if (s.playerId !== playerId)
    return reject('not-your-turn', `${playerId} does not hold seat ${seat}`);
  if (!roundOver(state) && (s.active || s.bet || s.behind.length)) {
    return reject('wrong-phase', 'a seat with bets is left after the round');
  }
  return {
    state: withSeat(state, emptySeat(seat)),
    effects: [event('seat-left', { seat, playerId })],
  };
}

function checkAmount(
  amount: number,
  limits: { min: number; max: number },
  what: string,
  zeroAllowed: boolean,
): Rejection | null {
  if (zeroAllowed && amount === 0) return null;
  if (!isMinorUnits(amount) || amount < limits.min || amount > limits.max) {
    return {
      code: 'invalid-amount',
      message: `${what} must be whole minor units in [${limits.min}, ${limits.max}]`,
    };
  }
  return null;
}

export function seatBet(
  state: LuxState,
  seat: number,
  playerId: string,
  main: number,
  pairs: number,
  currency?: string,
): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const s = seatAt(state, seat);
  if (!s) return reject('unknown-seat', `no seat ${seat}`);
  if (s.playerId !== playerId)
    return reject('not-your-turn', `${playerId} does not hold seat ${seat}`);
  const limits = luxLimitsIn(state.config, currency);
  if (!limits) return reject('wrong-currency', `this table takes no bet in ${currency}`);
  const problem =
    checkAmount(main, limits.seatBet, 'seat bet', false) ??
    checkAmount(pairs, limits.pairBet, 'pair bet', true);
  if (problem) return { rejected: problem };
  if (pairs > 0 && !pairsOffered(state))
    return reject('side-bet-not-offered', 'no pair bet this round');
  return {
    state: withSeat(state, { ...s, bet: { main, pairs, status: 'placed' } }),
    effects: [event('seat-bet-accepted', { seat, playerId, main, pairs })],
  };
}

export function seatBetFailed(
  state: LuxState,
  seat: number,
  playerId: string,
  reason: LuxSeatBetRefusal,
): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const s = seatAt(state, seat);
  if (!s) return reject('unknown-seat', `no seat ${seat}`);
  if (s.playerId !== playerId)
    return reject('not-your-turn', `${playerId} does not hold seat ${seat}`);
  return {
    state: withSeat(state, { ...s, bet: { main: 0, pairs: 0, status: 'failed' } }),
    effects: [event('seat-bet-failed', { seat, playerId, reason })],
  };
}

export function behindBet(
  state: LuxState,
  seat: number,
  playerId: string,
  main: number,
  pairs: number,
  currency?: string,
): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const s = seatAt(state, seat);
  if (!s) return reject('unknown-seat', `no seat ${seat}`);
  if (s.playerId === null) return reject('unknown-seat', `seat ${seat} is empty`);
  const limits = luxLimitsIn(state.config, currency);
  if (!limits) return reject('wrong-currency', `this table takes no bet in ${currency}`);
  if (s.playerId === playerId) {
    return reject('illegal-action', 'the seated player bets on the seat itself, not behind it');
  }
  const problem =
    checkAmount(main, limits.betBehind, 'bet behind', pairs > 0) ??
    checkAmount(pairs, limits.pairBet, 'pair bet', true);
  if (problem) return { rejected: problem };
  if (main === 0 && pairs === 0) return reject('invalid-amount', 'a bet behind needs an amount');
  if (pairs > 0 && !pairsOffered(state))
    return reject('side-bet-not-offered', 'no pair bet this round');
  const others = s.behind.filter((b) => b.playerId !== playerId);
  const bet: LuxBehindBet = {
    playerId,
    main,
    pairs,
    insurance: 0,
    stakes: [],
    doubled: [],
    followDouble: null,
    followSplit: null,
  };
  return {
    state: withSeat(state, { ...s, behind: [...others, bet] }),
    effects: [event('behind-bet-accepted', { seat, playerId, main, pairs })],
  };
}

/** Applies the seat rules, then deals to the seats that play, in seat order. */
export function closeBetting(state: LuxState): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const effects: LuxEffect[] = [];
  const returned: LuxSettlementRecord[] = [];
  const returnBehind = (s: LuxSeat) => {
    for (const b of s.behind) {
      for (const [bet, amount] of [
        ['main', b.main],
        ['pairs', b.pairs],
      ] as const) {
        if (amount > 0) returned.push(refundRecord(b.playerId, s.seat, 'behind', bet, amount));
      }
    }
  };
  const seats = state.seats.map((s): LuxSeat => {
    const verdict = luxSeatVerdict(s);
    if (verdict === null) {
      return s; // empty seat: behind bets cannot exist on it
    }
    if (verdict === 'plays') {
      const bet = s.bet!;
      return {
        ...s,
        roundsWithoutBet: 0,
        active: true,
        hands: newPlayerHands(bet.main).hands,
        behind: s.behind
          .filter((b) => b.main > 0 || b.pairs > 0)
          .map((b) => ({ ...b, stakes: [b.main], doubled: [false] })),
      };
    }
    returnBehind(s);
    if (verdict === 'grace') {
      effects.push(event('seat-sits-out', { seat: s.seat, playerId: s.playerId }));
      return { ...s, roundsWithoutBet: s.roundsWithoutBet + 1, behind: [] };
    }
    effects.push(event('seat-removed', { seat: s.seat, playerId: s.playerId, reason: verdict }));
    return emptySeat(s.seat);
  });
  const active = seats.filter((s) => s.active).map((s) => s.seat);
  const dealOrder: LuxDealSlot[] = active.length
    ? [
        ...active.map((seat) => ({ seat })),
        'dealer-up',
        ...active.map((seat) => ({ seat })),
        'dealer-hole',
      ]
    : [];
  let next: LuxState = { ...state, seats, dealOrder, dealt: 0, phase: 'dealing' };
  effects.unshift(event('betting-closed', { roundId: state.roundId, seatsPlaying: active }));
  if (returned.length) effects.push(event('bets-returned', { bets: returned }));
  if (!active.length) {
    // Nobody plays: there is no hand to follow, so every bet has already been returned.
    next = {
      ...next,
      phase: 'settled',
      settlement: {
        voided: false,
        dealerCards: [],
        records: [...(state.settlement?.records ?? []), ...returned],
      },
    };
    return { state: next, effects: [...effects, event('round-settled', next.settlement)] };
  }
  // Bets behind returned earlier in the window (a cancelled seat bet) stay on record.
  const records = [...(state.settlement?.records ?? []), ...returned];
  next = { ...next, settlement: { voided: false, dealerCards: [], records } };
  return { state: next, effects: [...effects, prompt(next)] };
}

function refundRecord(
  playerId: string,
  seat: number,
  role: 'seat' | 'behind',
  bet: 'main' | 'pairs' | 'insurance',
  amount: number,
): LuxSettlementRecord {
  return {
    playerId,
    seat,
    role,
    bet,
    staked: amount,
    refunded: amount,
    paid: 0,
    houseResult: 0,
    result: 'returned',
    rounding: [],
  };
}
