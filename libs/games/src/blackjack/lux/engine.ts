import { CardCode, cardCode, parseCardCode } from '@studio/cards';
import {
  dealerCards,
  dealerMustHit,
  dealerPeeks,
  insuranceOffered,
  revealHoleCard,
} from '../core/dealer';
import {
  event,
  EventEffect,
  PromptEffect,
  reject,
  Rejection,
  StepResult,
  TimerEffect,
  TimerName,
} from '../core/engine';
import { handTotal, isBlackjack } from '../core/hand';
import { halfOf, isMinorUnits } from '../core/money';
import {
  applyAction,
  autoPlayAction,
  currentHandIndex,
  dealToPlayer,
  handAwaitingCard,
  isPlayerAction,
  legalActions,
  newPlayerHands,
  PlayerAction,
  playerStatus,
} from '../core/player-hands';
import { settleLux } from './settlement';
import {
  DEFAULT_LUX_CONFIG,
  LUX_SEAT_COUNT,
  LuxBehindBet,
  LuxConfig,
  LuxDealSlot,
  LuxSeat,
  LuxSettlementRecord,
  LuxState,
} from './state';

/**
 * Blackjack Lux (games.md §3): seats 1–7 called in order, bet behind with its own insurance and
 * follow-double / follow-split choices, pre-decisions, early end on a dealer BJ or when every
 * seated player has BJ. Seat rules (who may sit, removals, one round of grace) are pure too; the
 * commands a platform sends (a bet on a seat, a decision naming or not naming its seat) become
 * engine inputs in seat-commands.ts.
 */

export interface LuxAccount {
  readonly playerId: string;
  /** Demo accounts and for-fun currencies may bet behind but not sit. */
  readonly demo: boolean;
  readonly funCurrency: boolean;
}

export type LuxInput =
  | {
      readonly type: 'open-betting';
      readonly roundId: string;
      readonly roundOfShoe: number;
      /** Balances of the seated players at the start of the round (minor units). */
      readonly balances?: Readonly<Record<string, number>>;
    }
  | { readonly type: 'take-seat'; readonly seat: number; readonly account: LuxAccount }
  | { readonly type: 'leave-seat'; readonly seat: number; readonly playerId: string }
  | {
      readonly type: 'seat-bet';
      readonly seat: number;
      readonly playerId: string;
      readonly main: number;
      readonly pairs?: number;
    }
  | {
      readonly type: 'behind-bet';
      readonly seat: number;
      readonly playerId: string;
      readonly main: number;
      readonly pairs?: number;
    }
  /**
   * The seated player's seat bet was refused (below the minimum, or the wallet could not take it):
   * the seat has no valid seat bet, and the player loses the seat when betting closes.
   */
  | {
      readonly type: 'seat-bet-failed';
      readonly seat: number;
      readonly playerId: string;
      readonly reason?: LuxSeatBetRefusal;
    }
  | { readonly type: 'close-betting' }
  | { readonly type: 'card'; readonly card: string }
  | {
      readonly type: 'insurance';
      readonly seat: number;
      readonly playerId: string;
      readonly take: boolean;
    }
  | {
      readonly type: 'pre-decision';
      readonly seat: number;
      readonly playerId: string;
      readonly action: PlayerAction | null;
    }
  | {
      readonly type: 'follow-choice';
      readonly seat: number;
      readonly playerId: string;
      readonly followDouble?: boolean;
      readonly followSplit?: boolean;
    }
  | {
      readonly type: 'decision';
      readonly seat: number;
      readonly playerId: string;
      readonly action: PlayerAction;
    }
  | { readonly type: 'close-window' }
  | { readonly type: 'timeout'; readonly timer: TimerName; readonly window: number }
  | { readonly type: 'void'; readonly reason: string };

/** Why a seat bet was refused. */
export type LuxSeatBetRefusal = 'below-minimum' | 'failed';

export type LuxEffect = EventEffect | TimerEffect | PromptEffect;
export type LuxStep = StepResult<LuxState, LuxEffect>;
type Ok = { state: LuxState; effects: LuxEffect[] };

const emptySeat = (seat: number): LuxSeat => ({
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
const clearRound = (s: LuxSeat): LuxSeat => ({
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

// ---- step ----------------------------------------------------------------------------------------

export function stepLux(state: LuxState, input: LuxInput): LuxStep {
  switch (input.type) {
    case 'open-betting':
      return openBetting(state, input.roundId, input.roundOfShoe, input.balances ?? {});
    case 'take-seat':
      return takeSeat(state, input.seat, input.account);
    case 'leave-seat':
      return leaveSeat(state, input.seat, input.playerId);
    case 'seat-bet':
      return seatBet(state, input.seat, input.playerId, input.main, input.pairs ?? 0);
    case 'behind-bet':
      return behindBet(state, input.seat, input.playerId, input.main, input.pairs ?? 0);
    case 'seat-bet-failed':
      return seatBetFailed(state, input.seat, input.playerId, input.reason ?? 'failed');
    case 'close-betting':
      return closeBetting(state);
    case 'card':
      return applyCard(state, input.card);
    case 'insurance':
      return insurance(state, input.seat, input.playerId, input.take);
    case 'pre-decision':
      return preDecision(state, input.seat, input.playerId, input.action);
    case 'follow-choice':
      return followChoice(state, input);
    case 'decision':
      return decision(state, input.seat, input.playerId, input.action);
    case 'close-window':
      return closeWindow(state);
    case 'timeout':
      if (input.window !== state.window) {
        return reject('wrong-phase', `stale ${input.timer} timer (window ${input.window})`);
      }
      return closeWindow(state);
    case 'void':
      return voidRound(state, input.reason);
  }
}

const withSeat = (state: LuxState, seat: LuxSeat): LuxState => ({
  ...state,
  seats: state.seats.map((s) => (s.seat === seat.seat ? seat : s)),
});

function seatAt(state: LuxState, seat: number): LuxSeat | null {
  return Number.isInteger(seat) && seat >= 1 && seat <= LUX_SEAT_COUNT
    ? state.seats[seat - 1]
    : null;
}

const roundOver = (state: LuxState) => ['idle', 'settled', 'voided'].includes(state.phase);

function openBetting(
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

function pairsOffered(state: LuxState): boolean {
  const last = state.config.pairsLastRound;
  return last === null || state.roundOfShoe <= last;
}

function takeSeat(state: LuxState, seat: number, account: LuxAccount): LuxStep {
  if (!roundOver(state) && state.phase !== 'betting') {
    return reject('wrong-phase', 'seats are taken between rounds or while betting is open');
  }
  const problem = luxSeatEligibility(state, seat, account);
  if (problem) return { rejected: problem };
  const next = withSeat(state, { ...emptySeat(seat), playerId: account.playerId });
  return { state: next, effects: [event('seat-taken', { seat, playerId: account.playerId })] };
}

function leaveSeat(state: LuxState, seat: number, playerId: string): LuxStep {
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

function seatBet(
  state: LuxState,
  seat: number,
  playerId: string,
  main: number,
  pairs: number,
): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const s = seatAt(state, seat);
  if (!s) return reject('unknown-seat', `no seat ${seat}`);
  if (s.playerId !== playerId)
    return reject('not-your-turn', `${playerId} does not hold seat ${seat}`);
  const problem =
    checkAmount(main, state.config.seatBet, 'seat bet', false) ??
    checkAmount(pairs, state.config.pairBet, 'pair bet', true);
  if (problem) return { rejected: problem };
  if (pairs > 0 && !pairsOffered(state))
    return reject('side-bet-not-offered', 'no pair bet this round');
  return {
    state: withSeat(state, { ...s, bet: { main, pairs, status: 'placed' } }),
    effects: [event('seat-bet-accepted', { seat, playerId, main, pairs })],
  };
}

function seatBetFailed(
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

function behindBet(
  state: LuxState,
  seat: number,
  playerId: string,
  main: number,
  pairs: number,
): LuxStep {
  if (state.phase !== 'betting') return reject('betting-closed', 'betting is not open');
  const s = seatAt(state, seat);
  if (!s) return reject('unknown-seat', `no seat ${seat}`);
  if (s.playerId === null) return reject('unknown-seat', `seat ${seat} is empty`);
  if (s.playerId === playerId) {
    return reject('illegal-action', 'the seated player bets on the seat itself, not behind it');
  }
  const problem =
    checkAmount(main, state.config.betBehind, 'bet behind', pairs > 0) ??
    checkAmount(pairs, state.config.pairBet, 'pair bet', true);
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
function closeBetting(state: LuxState): LuxStep {
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
      settlement: { voided: false, dealerCards: [], records: returned },
    };
    return { state: next, effects: [...effects, event('round-settled', next.settlement)] };
  }
  next = { ...next, settlement: { voided: false, dealerCards: [], records: returned } };
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

// ---- cards ---------------------------------------------------------------------------------------

export type LuxExpectedCard =
  | {
      readonly slot: 'seat';
      readonly seat: number;
      readonly hand: number;
      readonly position: number;
    }
  | { readonly slot: 'dealer-up' }
  | { readonly slot: 'dealer-hole' }
  | { readonly slot: 'dealer-draw'; readonly position: number };

export function luxExpectedCard(state: LuxState): LuxExpectedCard | null {
  if (state.phase === 'dealing') {
    const slot = state.dealOrder[state.dealt];
    if (slot === 'dealer-up' || slot === 'dealer-hole') return { slot };
    const seat = state.seats[slot.seat - 1];
    return { slot: 'seat', seat: slot.seat, hand: 0, position: seat.hands[0].cards.length + 1 };
  }
  if (state.phase === 'playing') {
    const seat = currentSeat(state);
    if (!seat) return null;
    const h = handAwaitingCard(seat);
    return h < 0
      ? null
      : { slot: 'seat', seat: seat.seat, hand: h, position: seat.hands[h].cards.length + 1 };
  }
  if (state.phase === 'dealer')
    return { slot: 'dealer-draw', position: luxDealerCards(state).length + 1 };
  return null;
}

export function luxDealerCards(state: LuxState): CardCode[] {
  return dealerCards(state.dealer);
}

/** The seat whose turn it is: the lowest-numbered seat still playing. */
export function currentSeat(state: LuxState): LuxSeat | null {
  return state.seats.find((s) => s.active && playerStatus(s) !== 'done') ?? null;
}

function applyCard(state: LuxState, text: string): LuxStep {
  const slot = luxExpectedCard(state);
  if (!slot) return reject('no-card-expected', `no card is expected (${state.phase})`);
  const parsed = typeof text === 'string' ? parseCardCode(text) : undefined;
  if (!parsed) return reject('invalid-card', `not a card: ${String(text)}`);
  const card = cardCode(parsed);
  const seen = state.cardCounts[card] ?? 0;
  if (seen >= state.config.rules.decks) {
    return reject('composition-exceeded', `${card} already came out ${seen} times this round`);
  }
  const counted: LuxState = { ...state, cardCounts: { ...state.cardCounts, [card]: seen + 1 } };
  if (slot.slot === 'dealer-draw') {
    const next: LuxState = {
      ...counted,
      dealer: { ...counted.dealer, draws: [...counted.dealer.draws, card] },
    };
    return continueAfter(dealerNext(next), [
      event('dealer-card-drawn', { card, dealerTotal: handTotal(luxDealerCards(next)).total }),
    ]);
  }
  if (slot.slot === 'dealer-up' || slot.slot === 'dealer-hole') {
    const up = slot.slot === 'dealer-up';
    const next: LuxState = {
      ...counted,
      dealt: counted.dealt + 1,
      dealer: { ...counted.dealer, ...(up ? { up: card } : { hole: card }) },
    };
    const dealt = event('card-dealt', { slot: slot.slot, card }, !up); // hole card: hidden
    return up
      ? { state: next, effects: [dealt, prompt(next)] }
      : continueAfter(afterDeal(next), [dealt]);
  }
  const seat = counted.seats[slot.seat - 1];
  const seated: LuxSeat = {
    ...seat,
    hands: dealToPlayer(seat, card, counted.config.rules).hands,
    initialCards: state.phase === 'dealing' ? [...seat.initialCards, card] : seat.initialCards,
  };
  let next = withSeat(counted, seated);
  const dealt = event('card-dealt', { slot: 'seat', seat: slot.seat, hand: slot.hand, card });
  if (state.phase === 'dealing') {
    next = { ...next, dealt: next.dealt + 1 };
    return { state: next, effects: [dealt, prompt(next)] };
  }
  return continueAfter(continueTurn(next), [dealt]);
}

function afterDeal(state: LuxState): LuxStep {
  if (insuranceOffered(state.dealer.up!, state.config.rules)) {
    const next: LuxState = {
      ...state,
      phase: 'insurance',
      window: state.window + 1,
      insuranceAnswers: {},
    };
    return {
      state: next,
      effects: [
        event('insurance-offered', { window: next.window }),
        timer('insurance', state.config.insuranceWindowMs, next.window),
      ],
    };
  }
  return afterInsurance(state);
}

/** Early end: a dealer BJ (peek), or no dealer BJ but every seated player has BJ. */
function afterInsurance(state: LuxState): LuxStep {
  const up = state.dealer.up!;
  const hole = state.dealer.hole!;
  const effects: LuxEffect[] = [];
  if (dealerPeeks(up, state.config.rules)) {
    const bj = isBlackjack([up, hole]);
    effects.push(event('dealer-checked', { blackjack: bj }));
    if (bj) return continueAfter(endRound({ ...state, earlyEnd: 'dealer-blackjack' }), effects);
  }
  const active = state.seats.filter((s) => s.active);
  if (active.every((s) => isBlackjack(s.hands[0].cards))) {
    return continueAfter(endRound({ ...state, earlyEnd: 'all-seats-blackjack' }), effects);
  }
  return continueAfter(continueTurn({ ...state, phase: 'playing' }), effects);
}

/** Reveals the hole card and settles without drawing further cards. */
function endRound(state: LuxState): Ok {
  const revealed = revealHoleCard(state);
  return continueAfter(settle(revealed.state), revealed.effects) as Ok;
}

// ---- turns ---------------------------------------------------------------------------------------

/**
 * Moves play on: the current seat's hand waits for a card, or its owner is asked (applying the
 * pre-decision when the turn starts), or the next seat, or the dealer.
 */
function continueTurn(state: LuxState): LuxStep {
  const seat = currentSeat(state);
  if (!seat) return dealerTurn(state);
  if (handAwaitingCard(seat) >= 0) return { state, effects: [prompt(state)] };
  const effects: LuxEffect[] = [];
  let s = state;
  if (!seat.turnStarted) {
    const started: LuxSeat = { ...seat, turnStarted: true, preDecision: null };
    s = withSeat(s, started);
    effects.push(event('turn-started', { seat: seat.seat, playerId: seat.playerId }));
    const pre = seat.preDecision;
    if (pre && legalFor(s, started).includes(pre)) {
      effects.push(event('pre-decision-applied', { seat: seat.seat, action: pre }));
      return continueAfter(act(s, started, pre), effects);
    }
  }
  const current = currentSeat(s)!;
  const next: LuxState = { ...s, window: s.window + 1 };
  const hand = currentHandIndex(current);
  return {
    state: next,
    effects: [
      ...effects,
      event('decision-requested', {
        seat: current.seat,
        playerId: current.playerId,
        hand,
        cards: current.hands[hand].cards,
        legalActions: legalFor(next, current),
        window: next.window,
      }),
      timer('decision', s.config.decisionWindowMs, next.window),
    ],
  };
}

function legalFor(state: LuxState, seat: LuxSeat): PlayerAction[] {
  const i = currentHandIndex(seat);
  if (i < 0) return [];
  return legalActions(seat.hands[i], { handCount: seat.hands.length }, state.config.rules);
}

/** Applies the seated player's action; bet-behind stakes follow by their own choices. */
function act(state: LuxState, seat: LuxSeat, action: PlayerAction): LuxStep {
  const h = currentHandIndex(seat);
  const applied = applyAction(seat, action, state.config.rules);
  if (!applied.ok) return reject('illegal-action', applied.reason);
  const behind = seat.behind.map((b): LuxBehindBet => {
    const stakes = [...b.stakes];
    const doubled = [...b.doubled];
    if (action === 'double' && b.followDouble === true) {
      stakes[h] *= 2;
      doubled[h] = true;
    }
    if (action === 'split') {
      stakes.splice(h + 1, 0, b.followSplit === true ? stakes[h] : 0);
      doubled.splice(h + 1, 0, false);
    }
    return { ...b, stakes, doubled };
  });
  const next = withSeat(state, { ...seat, hands: applied.player.hands, behind });
  return continueAfter(continueTurn(next), [
    event('decision-applied', { seat: seat.seat, hand: h, action }),
  ]);
}

function decision(
  state: LuxState,
  seatNo: number,
  playerId: string,
  action: PlayerAction,
): LuxStep {
  if (state.phase !== 'playing')
    return reject('no-decision-window', `no decision is expected (${state.phase})`);
  const seat = currentSeat(state);
  if (!seat || seat.seat !== seatNo || seat.playerId !== playerId) {
    return reject('not-your-turn', `it is not seat ${seatNo}'s turn`);
  }
  if (handAwaitingCard(seat) >= 0)
    return reject('not-your-turn', 'the hand is waiting for its card');
  if (!isPlayerAction(action) || !legalFor(state, seat).includes(action)) {
    return reject('illegal-action', `${String(action)} is not legal on this hand`);
  }
  return act(state, seat, action);
}

function preDecision(
  state: LuxState,
  seatNo: number,
  playerId: string,
  action: PlayerAction | null,
): LuxStep {
  if (roundOver(state)) return reject('round-over', 'no round in progress');
  const seat = seatAt(state, seatNo);
  if (!seat || seat.playerId !== playerId)
    return reject('not-your-turn', `${playerId} does not hold seat ${seatNo}`);
  if (seat.turnStarted) return reject('not-your-turn', 'the turn has started: decide instead');
  if (action !== null && !isPlayerAction(action)) return reject('illegal-action', 'unknown action');
  return {
    state: withSeat(state, { ...seat, preDecision: action }),
    effects: [event('pre-decision-set', { seat: seatNo, playerId, action })],
  };
}

function followChoice(
  state: LuxState,
  input: Extract<LuxInput, { type: 'follow-choice' }>,
): LuxStep {
  if (roundOver(state)) return reject('round-over', 'no round in progress');
  const seat = seatAt(state, input.seat);
  if (!seat) return reject('unknown-seat', `no seat ${input.seat}`);
  const bet = seat.behind.find((b) => b.playerId === input.playerId);
  if (!bet)
    return reject('unknown-player', `${input.playerId} has no bet behind seat ${input.seat}`);
  const updated: LuxBehindBet = {
    ...bet,
    followDouble: input.followDouble ?? bet.followDouble,
    followSplit: input.followSplit ?? bet.followSplit,
  };
  return {
    state: withSeat(state, {
      ...seat,
      behind: seat.behind.map((b) => (b.playerId === input.playerId ? updated : b)),
    }),
    effects: [
      event('follow-choice-set', {
        seat: input.seat,
        playerId: input.playerId,
        followDouble: updated.followDouble,
        followSplit: updated.followSplit,
      }),
    ],
  };
}

function insurance(state: LuxState, seatNo: number, playerId: string, take: boolean): LuxStep {
  if (state.phase !== 'insurance')
    return reject('no-decision-window', 'insurance is not offered now');
  const seat = seatAt(state, seatNo);
  if (!seat || !seat.active) return reject('unknown-seat', `seat ${seatNo} does not play`);
  const onSeat = seat.playerId === playerId;
  if (!onSeat && !seat.behind.some((b) => b.playerId === playerId && b.main > 0)) {
    return reject('unknown-player', `${playerId} has no main bet on seat ${seatNo}`);
  }
  return {
    state: {
      ...state,
      insuranceAnswers: { ...state.insuranceAnswers, [`${seatNo}:${playerId}`]: take },
    },
    effects: [event('insurance-answered', { seat: seatNo, playerId, take })],
  };
}

/** Insurance costs half the main stake (rounded down by Default); no answer: no insurance. */
function closeInsurance(state: LuxState): LuxStep {
  const rounding = state.config.rules.rounding;
  const answers = state.insuranceAnswers;
  const seats = state.seats.map((s) => {
    if (!s.active) return s;
    const own = answers[`${s.seat}:${s.playerId}`] === true;
    return {
      ...s,
      insurance: own ? halfOf(s.bet!.main, rounding).amount : 0,
      behind: s.behind.map((b) => ({
        ...b,
        insurance:
          answers[`${s.seat}:${b.playerId}`] === true ? halfOf(b.main, rounding).amount : 0,
      })),
    };
  });
  return continueAfter(afterInsurance({ ...state, seats }), [
    event('insurance-closed', { window: state.window }),
  ]);
}

function closeWindow(state: LuxState): LuxStep {
  if (state.phase === 'betting') return closeBetting(state);
  if (state.phase === 'insurance') return closeInsurance(state);
  if (state.phase !== 'playing') return reject('no-decision-window', 'no window is open');
  const seat = currentSeat(state);
  if (!seat || handAwaitingCard(seat) >= 0)
    return reject('no-decision-window', 'no decision is awaited');
  // Missing decision: the automatic play (hit while 11 or less, then stand).
  const hand = seat.hands[currentHandIndex(seat)];
  const auto = autoPlayAction(hand);
  const action = legalFor(state, seat).includes(auto) ? auto : 'stand';
  return continueAfter(act(state, seat, action), [
    event('auto-played', { seat: seat.seat, playerId: seat.playerId, action }),
  ]);
}

// ---- dealer and settlement -----------------------------------------------------------------------

function dealerTurn(state: LuxState): LuxStep {
  const revealed = revealHoleCard<LuxState>({ ...state, phase: 'dealer' });
  return continueAfter(dealerNext(revealed.state), revealed.effects);
}

function dealerNext(state: LuxState): LuxStep {
  const cards = luxDealerCards(state);
  const live = state.seats.some(
    (s) =>
      s.active &&
      s.hands.some(
        (h) =>
          !h.surrendered && handTotal(h.cards).total <= 21 && !isBlackjack(h.cards, h.fromSplit),
      ),
  );
  if (live && !isBlackjack(cards) && dealerMustHit(cards, state.config.rules)) {
    return { state, effects: [prompt(state)] };
  }
  return settle(state);
}

function settle(state: LuxState): Ok {
  const settlement = settleLux(state);
  const next: LuxState = { ...state, phase: 'settled', settlement };
  return {
    state: next,
    effects: [
      event('round-settled', {
        roundId: state.roundId,
        earlyEnd: state.earlyEnd,
        dealerCards: settlement.dealerCards,
        records: settlement.records,
      }),
    ],
  };
}

function voidRound(state: LuxState, reason: string): LuxStep {
  if (roundOver(state)) return reject('round-over', 'there is no round in progress to void');
  const voided: LuxState = { ...state, phase: 'voided', voidReason: reason };
  const settlement = settleLux(voided);
  return {
    state: { ...voided, settlement },
    effects: [
      event('round-voided', { roundId: state.roundId, reason, records: settlement.records }),
    ],
  };
}

// ---- helpers -------------------------------------------------------------------------------------

function continueAfter(step: LuxStep, before: LuxEffect[]): LuxStep {
  if ('rejected' in step) return step;
  return { state: step.state, effects: [...before, ...step.effects] };
}

function timer(name: TimerName, durationMs: number, window: number): TimerEffect {
  return { type: 'set-timer', timer: name, durationMs, window };
}

function prompt(state: LuxState): PromptEffect {
  const slot = luxExpectedCard(state);
  const message = !slot
    ? 'wait'
    : slot.slot === 'seat'
      ? `deal card ${slot.position} to seat ${slot.seat}${slot.hand ? ` hand ${slot.hand + 1}` : ''}`
      : slot.slot === 'dealer-draw'
        ? `draw dealer card ${slot.position}`
        : `deal the dealer ${slot.slot === 'dealer-up' ? 'up card' : 'hole card (face down)'}`;
  return { type: 'prompt', message };
}
