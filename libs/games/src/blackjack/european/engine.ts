import { CardCode, cardCode, parseCardCode } from '@studio/cards';
import { dealerMustHit } from '../core/dealer';
import { event, reject, Rejection } from '../core/engine';
import { handTotal } from '../core/hand';
import { isMinorUnits } from '../core/money';
import {
  applyAction,
  autoPlayAction,
  currentHandIndex,
  dealToPlayer,
  handAwaitingCard,
  legalActions,
  newPlayerHands,
  PlayerAction,
  playerStatus,
} from '../core/player-hands';
import { BlackjackRules } from '../core/rules';
import { settleHand } from '../core/settle';
import { BotView } from '../bots/view';
import {
  DEFAULT_EUROPEAN_CONFIG,
  EuropeanConfig,
  EuropeanEffect,
  EuropeanRound,
  EuropeanRoundInput,
  EuropeanSlot,
  EuropeanState,
  EuropeanStep,
  SeatRound,
} from './state';

/**
 * Game 3, European Blackjack practice table (games.md §4): up to 7 seats of players or bots,
 * virtual points, a 6-deck virtual shoe shuffled outside the engine (the order is an input and is
 * recorded), no peek, no insurance, surrender or side bets.
 *
 * A pure state machine over card inputs like the other engines:
 * `stepEuropeanRound(state, input) -> { state, effects } | { rejected }`, with
 * `europeanExpectedCard` naming the slot of the next card. `stepEuropean` (shoe-driver.ts) is a thin
 * driver that deals those cards from a loaded virtual shoe, for bots, simulations and tests.
 */

export function newEuropeanTable(config: Partial<EuropeanConfig> = {}): EuropeanState {
  return {
    config: { ...DEFAULT_EUROPEAN_CONFIG, ...config },
    shoe: null,
    roundsPlayed: 0,
    round: null,
    scores: {},
  };
}

/** The card-input engine: one step of the round. */
export function stepEuropeanRound(state: EuropeanState, input: EuropeanRoundInput): EuropeanStep {
  switch (input.type) {
    case 'start-round':
      return startRound(state, input);
    case 'card':
      return applyCard(state, input.card);
    case 'decide':
      return decide(state, input.seat, input.action);
    case 'timeout': {
      const seat = state.round?.seats[state.round.turn];
      if (seatToAct(state) !== input.seat || !seat) {
        return reject('not-your-turn', `seat ${input.seat} has no open decision`);
      }
      const hand = seat.player.hands[currentHandIndex(seat.player)];
      return decide(state, input.seat, autoPlayAction(hand));
    }
  }
}

export function roundInProgress(state: EuropeanState): boolean {
  const phase = state.round?.phase;
  return phase === 'dealing' || phase === 'playing' || phase === 'dealer';
}

/** One card to each seat, the dealer's up card, a second card to each seat, the hidden card. */
function initialSlot(round: EuropeanRound): EuropeanSlot | null {
  const n = round.seats.length;
  const i = round.initialDealt;
  if (i < n) return { to: 'seat', seat: round.seats[i].seat, hand: 0 };
  if (i === n) return { to: 'dealer-up' };
  if (i < 2 * n + 1) return { to: 'seat', seat: round.seats[i - n - 1].seat, hand: 0 };
  if (i === 2 * n + 1) return { to: 'dealer-hidden' };
  return null;
}

/** Where the next card goes, or null when the engine waits for a decision or the round is over. */
export function europeanExpectedCard(state: EuropeanState): EuropeanSlot | null {
  const round = state.round;
  if (!round) return null;
  switch (round.phase) {
    case 'dealing':
      return initialSlot(round);
    case 'playing': {
      const seat = round.seats[round.turn];
      const hand = seat ? handAwaitingCard(seat.player) : -1;
      return hand >= 0 ? { to: 'seat', seat: seat.seat, hand } : null;
    }
    case 'dealer':
      return dealerMustHit(dealerCards(round), state.config.rules) ? { to: 'dealer' } : null;
    default:
      return null;
  }
}

function dealerCards(round: EuropeanRound): CardCode[] {
  const { up, hidden, draws } = round.dealer;
  return [...(up ? [up] : []), ...(hidden ? [hidden] : []), ...draws];
}

function startRound(
  state: EuropeanState,
  input: Extract<EuropeanRoundInput, { type: 'start-round' }>,
): EuropeanStep {
  if (roundInProgress(state)) return reject('wrong-phase', 'a round is in progress');
  const { bets } = input;
  if (bets.length === 0) return reject('no-main-bet', 'a round needs at least one bet');
  const seen = new Set<number>();
  for (const b of bets) {
    if (!Number.isInteger(b.seat) || b.seat < 1 || b.seat > state.config.seats) {
      return reject('unknown-seat', `seat ${b.seat} does not exist`);
    }
    if (seen.has(b.seat)) return reject('seat-taken', `seat ${b.seat} has two bets`);
    seen.add(b.seat);
    if (!isMinorUnits(b.stake) || b.stake === 0) {
      return reject('invalid-amount', `stake ${b.stake} is not a positive whole amount`);
    }
  }
  const ordered = [...bets].sort((a, b) => a.seat - b.seat);
  const number = state.roundsPlayed + 1;
  const firstCardIndex = input.firstCardIndex ?? 0;
  const shoeNumber = input.shoeNumber ?? state.shoe?.shoeNumber ?? 1;
  const round: EuropeanRound = {
    number,
    shoeNumber,
    firstCardIndex,
    phase: 'dealing',
    seats: ordered.map((b) => ({
      seat: b.seat,
      occupant: b.occupant,
      stake: b.stake,
      player: newPlayerHands(b.stake),
      settlements: null,
      score: null,
    })),
    initialDealt: 0,
    dealer: { up: null, hidden: null, draws: [], revealed: false },
    turn: -1,
  };
  // The engine's own record of the start (for its drivers); the service's table announces rounds.
  const started = event('round-started', {
    round: number,
    shoeNumber,
    firstCardIndex,
    seats: ordered.map((b) => ({ seat: b.seat, occupant: b.occupant, stake: b.stake })),
  });
  return { state: { ...state, roundsPlayed: number, round }, effects: [started] };
}

function applyCard(state: EuropeanState, card: CardCode): EuropeanStep {
  const slot = europeanExpectedCard(state);
  if (!slot) return reject('no-card-expected', 'no card is expected now');
  const parsed = typeof card === 'string' ? parseCardCode(card) : undefined;
  if (!parsed || cardCode(parsed) !== card)
    return reject('invalid-card', `not a card code: ${card}`);
  const rules = state.config.rules;
  let round = state.round!;
  const effects: EuropeanEffect[] = [];
  if (slot.to === 'seat') {
    const seats = round.seats.map((s) =>
      s.seat === slot.seat ? { ...s, player: dealToPlayer(s.player, card, rules) } : s,
    );
    round = { ...round, seats };
    effects.push(event('card-dealt', { to: 'seat', seat: slot.seat, hand: slot.hand, card }));
  } else if (slot.to === 'dealer-up') {
    round = { ...round, dealer: { ...round.dealer, up: card } };
    effects.push(event('card-dealt', { to: 'dealer-up', card }));
  } else if (slot.to === 'dealer-hidden') {
    round = { ...round, dealer: { ...round.dealer, hidden: card } };
    // The hidden card is recorded but travels only in a hidden event until it is revealed.
    effects.push(event('card-dealt', { to: 'dealer-hidden', card }, true));
    effects.push(event('card-dealt', { to: 'dealer-hidden', card: null }));
  } else {
    round = { ...round, dealer: { ...round.dealer, draws: [...round.dealer.draws, card] } };
    effects.push(event('card-dealt', { to: 'dealer', card }));
  }
  if (round.phase === 'dealing') {
    round = { ...round, initialDealt: round.initialDealt + 1 };
    if (initialSlot(round)) return { state: { ...state, round }, effects };
    round = { ...round, phase: 'playing' };
  }
  return advance({ ...state, round }, effects);
}

function decide(state: EuropeanState, seatNumber: number, action: PlayerAction): EuropeanStep {
  const round = state.round;
  if (!round || round.phase !== 'playing') return reject('wrong-phase', 'no round in progress');
  if (seatToAct(state) !== seatNumber) {
    return reject('not-your-turn', `it is not seat ${seatNumber}'s turn`);
  }
  const seat = round.seats[round.turn];
  const applied = applyAction(seat.player, action, state.config.rules);
  if (!applied.ok) return reject('illegal-action', applied.reason);
  const seats = [...round.seats];
  seats[round.turn] = { ...seat, player: applied.player };
  const effects: EuropeanEffect[] = [
    event('decision', { seat: seatNumber, hand: currentHandIndex(seat.player), action }),
  ];
  return advance({ ...state, round: { ...round, seats } }, effects);
}

/**
 * Moves the turn to the first seat that waits for a card or must decide; when nobody has to act
 * any more, reveals the hidden card and lets the dealer draw (or settles at once).
 */
function advance(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  let round = state.round!;
  if (round.phase === 'dealer') return dealerOrSettle(state, effects);
  let turn = round.turn < 0 ? 0 : round.turn;
  while (turn < round.seats.length && playerStatus(round.seats[turn].player) === 'done') turn += 1;
  if (turn < round.seats.length) {
    round = { ...round, turn };
    const s = round.seats[turn];
    if (playerStatus(s.player) === 'acting') {
      effects.push(
        event('decision-requested', {
          seat: s.seat,
          hand: currentHandIndex(s.player),
          legalActions: currentLegalActions(round, state.config.rules),
        }),
      );
    }
    return { state: { ...state, round }, effects };
  }
  round = { ...round, turn: -1, phase: 'dealer', dealer: { ...round.dealer, revealed: true } };
  effects.push(event('hidden-card-revealed', { card: round.dealer.hidden }));
  return dealerOrSettle({ ...state, round }, effects);
}

function dealerOrSettle(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  if (europeanExpectedCard(state)) return { state, effects };
  return finishRound(state, effects);
}

function currentLegalActions(round: EuropeanRound, rules: BlackjackRules): PlayerAction[] {
  const s = round.seats[round.turn];
  if (!s) return [];
  const i = currentHandIndex(s.player);
  return i < 0 ? [] : legalActions(s.player.hands[i], { handCount: s.player.hands.length }, rules);
}

/** Settles every hand separately against the dealer's final hand (soft 17 stands). */
function finishRound(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  const rules = state.config.rules;
  const round = state.round!;
  const cards = dealerCards(round);
  const scores = { ...state.scores };
  const seats = round.seats.map((s) => {
    const settlements = s.player.hands.map((h) => settleHand(h, cards, rules));
    // Units per unit staked, exact: a blackjack on a stake of 3 pays 4 points (rounded down to
    // the unit, section 0) yet scores +1.5, as the rules state the score.
    const net = settlements.reduce(
      (sum, x) =>
        sum + x.paid + x.refunded - x.staked + x.rounding.numerator / x.rounding.denominator,
      0,
    );
    const score = net / s.stake;
    const key = scoreKey(s);
    scores[key] = (scores[key] ?? 0) + score;
    return { ...s, settlements, score };
  });
  const settledRound: EuropeanRound = { ...round, phase: 'settled', seats, turn: -1 };
  effects.push(
    event('round-settled', {
      round: round.number,
      dealer: { cards, total: handTotal(cards).total },
      seats: seats.map((s) => ({
        seat: s.seat,
        score: s.score,
        hands: s.settlements.map((x, i) => ({
          cards: s.player.hands[i].cards,
          outcome: x.outcome,
          staked: x.staked,
          refunded: x.refunded,
          paid: x.paid,
          rounding: x.rounding,
        })),
      })),
    }),
  );
  return { state: { ...state, round: settledRound, scores }, effects };
}

/** Ends the round without a result (the caller ran out of cards): every stake is refunded. */
export function voidEuropeanRound(state: EuropeanState, reason: string): EuropeanStep {
  const round = state.round;
  if (!round || !roundInProgress(state)) return reject('round-over', 'no round in progress');
  return {
    state: {
      ...state,
      round: { ...round, phase: 'void', turn: -1, dealer: { ...round.dealer, revealed: true } },
    },
    effects: [event('round-voided', { round: round.number, reason })],
  };
}

export function scoreKey(s: Pick<SeatRound, 'seat' | 'occupant'>): string {
  return s.occupant.kind === 'player' ? s.occupant.playerId : `bot:${s.seat}`;
}

/** The seat whose decision is awaited, or null. */
export function seatToAct(state: EuropeanState): number | null {
  const r = state.round;
  if (!r || r.phase !== 'playing' || r.turn < 0) return null;
  const seat = r.seats[r.turn];
  return playerStatus(seat.player) === 'acting' ? seat.seat : null;
}

/**
 * What a seat's bot (or player) may see at its decision: its hands, the face-up cards and the
 * legal actions. Built field by field from visible parts only: the hidden card and the shoe are
 * not reachable from the result.
 */
export function botView(state: EuropeanState, seatNumber: number): BotView | Rejection {
  const round = state.round;
  if (!round || round.phase !== 'playing' || !round.dealer.up) {
    return { code: 'wrong-phase', message: 'no round in progress' };
  }
  const seat = round.seats.find((s) => s.seat === seatNumber);
  if (!seat) return { code: 'unknown-seat', message: `seat ${seatNumber} has no bet` };
  const isTurn = seatToAct(state) === seatNumber;
  return {
    rules: state.config.rules,
    seat: seatNumber,
    dealerUp: round.dealer.up,
    hands: seat.player.hands.map((h) => ({
      cards: [...h.cards],
      fromSplit: h.fromSplit,
      doubled: h.doubled,
    })),
    currentHand: currentHandIndex(seat.player),
    legalActions: isTurn ? currentLegalActions(round, state.config.rules) : [],
    otherSeats: round.seats
      .filter((s) => s.seat !== seatNumber)
      .map((s) => ({ seat: s.seat, cards: s.player.hands.flatMap((h) => [...h.cards]) })),
  };
}

export function isRejection(x: BotView | Rejection): x is Rejection {
  return 'code' in x && 'message' in x && !('rules' in x);
}
