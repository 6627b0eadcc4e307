import { CardCode, cardCode, parseCardCode, ShoeComposition } from '@studio/cards';
import { dealerMustHit } from '../core/dealer';
import { EventEffect, event, reject, Rejection, StepResult, TimerEffect } from '../core/engine';
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
  PlayerHands,
  playerStatus,
} from '../core/player-hands';
import { BlackjackRules, rulesFor } from '../core/rules';
import { HandSettlement, settleHand } from '../core/settle';
import { BotDifficulty, BotView } from '../bots/view';

/**
 * Game 3, European Blackjack practice table (games.md §4): up to 7 seats of players or bots,
 * virtual points, a 6-deck virtual shoe shuffled outside the engine (the order is an input and is
 * recorded), no peek, no insurance, surrender or side bets.
 *
 * A pure state machine: `stepEuropean(state, input) -> { state, effects } | { rejected }`.
 */

export interface EuropeanConfig {
  readonly rules: BlackjackRules;
  readonly seats: number;
  /** Cards dealt from a shoe before the next round needs a new shoe (the virtual cut card). */
  readonly cutCardAt: number;
}

export const DEFAULT_EUROPEAN_CONFIG: EuropeanConfig = {
  rules: rulesFor('european-practice'),
  seats: 7,
  cutCardAt: 234, // 75% of 312 cards
};

export type SeatOccupant =
  | { readonly kind: 'player'; readonly playerId: string }
  | { readonly kind: 'bot'; readonly difficulty: BotDifficulty };

/** How the shoe order was produced: enough to replay it (the order itself is stored too). */
export interface ShuffleRecord {
  readonly method: 'fisher-yates';
  readonly source: 'crypto' | 'seeded';
  /** Present for seeded shuffles. */
  readonly seed?: number;
}

export interface VirtualShoe {
  readonly shoeNumber: number;
  readonly order: readonly CardCode[];
  /** Index of the next card to draw. */
  readonly next: number;
  readonly shuffle: ShuffleRecord;
}

export interface SeatRound {
  readonly seat: number;
  readonly occupant: SeatOccupant;
  /** The original stake in virtual minor units (100 = 1 unit). */
  readonly stake: number;
  readonly player: PlayerHands;
  readonly settlements: readonly HandSettlement[] | null;
  /** Net result in units of the original stake: +1 win, -1 loss, 0 push, +1.5 BJ, ... */
  readonly score: number | null;
}

export type EuropeanPhase = 'playing' | 'settled' | 'void';

export interface EuropeanRound {
  readonly number: number;
  readonly shoeNumber: number;
  /** Position in the shoe order of the round's first card (replay). */
  readonly firstCardIndex: number;
  readonly phase: EuropeanPhase;
  readonly seats: readonly SeatRound[];
  readonly dealer: {
    readonly up: CardCode;
    /** Face down until `revealed`; never part of a player or bot view before. */
    readonly hidden: CardCode;
    readonly draws: readonly CardCode[];
    readonly revealed: boolean;
  };
  /** Index in `seats` of the seat to act, or -1. */
  readonly turn: number;
}

export interface EuropeanState {
  readonly config: EuropeanConfig;
  readonly shoe: VirtualShoe | null;
  readonly roundsPlayed: number;
  readonly round: EuropeanRound | null;
  /** Session scores in units, per player id or `bot:<seat>`. */
  readonly scores: Readonly<Record<string, number>>;
}

export interface EuropeanBet {
  readonly seat: number;
  readonly occupant: SeatOccupant;
  readonly stake: number;
}

export type EuropeanInput =
  | {
      readonly type: 'load-shoe';
      readonly order: readonly CardCode[];
      readonly shuffle: ShuffleRecord;
    }
  | { readonly type: 'start-round'; readonly bets: readonly EuropeanBet[] }
  | { readonly type: 'decide'; readonly seat: number; readonly action: PlayerAction }
  /** The seat's decision window ran out: auto-play (games.md §0). */
  | { readonly type: 'timeout'; readonly seat: number };

export type EuropeanEffect = EventEffect | TimerEffect;
export type EuropeanStep = StepResult<EuropeanState, EuropeanEffect>;

export function newEuropeanTable(config: Partial<EuropeanConfig> = {}): EuropeanState {
  return {
    config: { ...DEFAULT_EUROPEAN_CONFIG, ...config },
    shoe: null,
    roundsPlayed: 0,
    round: null,
    scores: {},
  };
}

/** A new shoe is needed before the next round (none loaded, or the cut card was passed). */
export function needsShoe(state: EuropeanState): boolean {
  return !state.shoe || state.shoe.next >= state.config.cutCardAt;
}

export function stepEuropean(state: EuropeanState, input: EuropeanInput): EuropeanStep {
  switch (input.type) {
    case 'load-shoe':
      return loadShoe(state, input.order, input.shuffle);
    case 'start-round':
      return startRound(state, input.bets);
    case 'decide':
      return decide(state, input.seat, input.action);
    case 'timeout': {
      const seat = state.round?.seats[state.round.turn];
      if (!state.round || state.round.phase !== 'playing' || !seat || seat.seat !== input.seat) {
        return reject('not-your-turn', `seat ${input.seat} has no open decision`);
      }
      const hand = seat.player.hands[currentHandIndex(seat.player)];
      return decide(state, input.seat, autoPlayAction(hand));
    }
  }
}

function roundInProgress(state: EuropeanState): boolean {
  return state.round !== null && state.round.phase === 'playing';
}

function loadShoe(
  state: EuropeanState,
  order: readonly CardCode[],
  shuffle: ShuffleRecord,
): EuropeanStep {
  if (roundInProgress(state)) return reject('wrong-phase', 'a round is in progress');
  const decks = state.config.rules.decks;
  if (order.length !== decks * 52) {
    return reject(
      'invalid-card',
      `a ${decks}-deck shoe has ${decks * 52} cards, got ${order.length}`,
    );
  }
  let comp = ShoeComposition.empty(decks);
  for (const code of order) {
    const card = typeof code === 'string' && code.length === 2 ? parseCardCode(code) : undefined;
    if (!card || cardCode(card) !== code) {
      return reject('invalid-card', `not a card code: ${String(code)}`);
    }
    const added = comp.add(card);
    if (!added.ok)
      return reject('composition-exceeded', `${code} appears more than ${decks} times`);
    comp = added.composition;
  }
  const shoeNumber = (state.shoe?.shoeNumber ?? 0) + 1;
  const shoe: VirtualShoe = { shoeNumber, order: [...order], next: 0, shuffle };
  return {
    state: { ...state, shoe },
    effects: [event('shoe-loaded', { shoeNumber, cards: order.length, shuffle }, false)],
  };
}

/** Draws the next card; undefined when the shoe is exhausted (the round is then voided). */
function draw(shoe: VirtualShoe): { card: CardCode; shoe: VirtualShoe } | undefined {
  if (shoe.next >= shoe.order.length) return undefined;
  return { card: shoe.order[shoe.next], shoe: { ...shoe, next: shoe.next + 1 } };
}

function startRound(state: EuropeanState, bets: readonly EuropeanBet[]): EuropeanStep {
  if (roundInProgress(state)) return reject('wrong-phase', 'a round is in progress');
  if (needsShoe(state)) return reject('wrong-phase', 'the shoe must be (re)shuffled first');
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
  const rules = state.config.rules;
  const ordered = [...bets].sort((a, b) => a.seat - b.seat);
  let shoe = state.shoe!;
  const firstCardIndex = shoe.next;
  const effects: EuropeanEffect[] = [];
  const number = state.roundsPlayed + 1;
  effects.push(
    event('round-started', {
      round: number,
      shoeNumber: shoe.shoeNumber,
      firstCardIndex,
      seats: ordered.map((b) => ({ seat: b.seat, occupant: b.occupant, stake: b.stake })),
    }),
  );
  let seats: SeatRound[] = ordered.map((b) => ({
    seat: b.seat,
    occupant: b.occupant,
    stake: b.stake,
    player: newPlayerHands(b.stake),
    settlements: null,
    score: null,
  }));
  // Deal order: one card to each seat, dealer up, a second card to each seat, dealer hidden.
  const take = (): CardCode => {
    const d = draw(shoe)!; // a fresh round starts before the cut card: 78+ cards remain
    shoe = d.shoe;
    return d.card;
  };
  const dealSeats = (): void => {
    seats = seats.map((s) => {
      const card = take();
      effects.push(event('card-dealt', { to: 'seat', seat: s.seat, hand: 0, card }));
      return { ...s, player: dealToPlayer(s.player, card, rules) };
    });
  };
  dealSeats();
  const up = take();
  effects.push(event('card-dealt', { to: 'dealer-up', card: up }));
  dealSeats();
  const hidden = take();
  // The hidden card is recorded but travels only in a hidden event until it is revealed.
  effects.push(event('card-dealt', { to: 'dealer-hidden', card: hidden }, true));
  effects.push(event('card-dealt', { to: 'dealer-hidden', card: null }));
  const round: EuropeanRound = {
    number,
    shoeNumber: shoe.shoeNumber,
    firstCardIndex,
    phase: 'playing',
    seats,
    dealer: { up, hidden, draws: [], revealed: false },
    turn: -1,
  };
  return advance({ ...state, shoe, roundsPlayed: number, round }, effects);
}

function decide(state: EuropeanState, seatNumber: number, action: PlayerAction): EuropeanStep {
  const round = state.round;
  if (!round || round.phase !== 'playing') return reject('wrong-phase', 'no round in progress');
  const seat = round.seats[round.turn];
  if (!seat || seat.seat !== seatNumber) {
    return reject('not-your-turn', `it is not seat ${seatNumber}'s turn`);
  }
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
 * Deals the cards the current seat's hands wait for, moves the turn to the next seat that must
 * decide, and finishes the round (dealer, settlement) when nobody has to act any more.
 */
function advance(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  const rules = state.config.rules;
  let round = state.round!;
  let shoe = state.shoe!;
  const seats = [...round.seats];
  let turn = round.turn < 0 ? 0 : round.turn;
  while (turn < seats.length) {
    let player = seats[turn].player;
    for (let i = handAwaitingCard(player); i >= 0; i = handAwaitingCard(player)) {
      const d = draw(shoe);
      if (!d) return voidRound({ ...state, shoe, round: { ...round, seats } }, effects);
      shoe = d.shoe;
      player = dealToPlayer(player, d.card, rules);
      effects.push(
        event('card-dealt', { to: 'seat', seat: seats[turn].seat, hand: i, card: d.card }),
      );
    }
    seats[turn] = { ...seats[turn], player };
    if (playerStatus(player) === 'acting') break;
    turn += 1;
  }
  round = { ...round, seats, turn: turn < seats.length ? turn : -1 };
  if (round.turn >= 0) {
    const s = seats[round.turn];
    effects.push(
      event('decision-requested', {
        seat: s.seat,
        hand: currentHandIndex(s.player),
        legalActions: currentLegalActions(round, rules),
      }),
    );
    return { state: { ...state, shoe, round }, effects };
  }
  return finishRound({ ...state, shoe, round }, effects);
}

function currentLegalActions(round: EuropeanRound, rules: BlackjackRules): PlayerAction[] {
  const s = round.seats[round.turn];
  if (!s) return [];
  const i = currentHandIndex(s.player);
  return i < 0 ? [] : legalActions(s.player.hands[i], { handCount: s.player.hands.length }, rules);
}

/** Reveals the hidden card, draws to 17 (soft 17 stands), settles every hand separately. */
function finishRound(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  const rules = state.config.rules;
  let shoe = state.shoe!;
  const round = state.round!;
  const dealerCards: CardCode[] = [round.dealer.up, round.dealer.hidden];
  effects.push(event('hidden-card-revealed', { card: round.dealer.hidden }));
  while (dealerMustHit(dealerCards, rules)) {
    const d = draw(shoe);
    if (!d) return voidRound({ ...state, shoe }, effects);
    shoe = d.shoe;
    dealerCards.push(d.card);
    effects.push(event('card-dealt', { to: 'dealer', card: d.card }));
  }
  const scores = { ...state.scores };
  const seats = round.seats.map((s) => {
    const settlements = s.player.hands.map((h) => settleHand(h, dealerCards, rules));
    const net = settlements.reduce((sum, x) => sum + x.paid + x.refunded - x.staked, 0);
    const score = net / s.stake;
    const key = scoreKey(s);
    scores[key] = (scores[key] ?? 0) + score;
    return { ...s, settlements, score };
  });
  const settledRound: EuropeanRound = {
    ...round,
    phase: 'settled',
    seats,
    turn: -1,
    dealer: { ...round.dealer, draws: dealerCards.slice(2), revealed: true },
  };
  effects.push(
    event('round-settled', {
      round: round.number,
      dealer: { cards: dealerCards, total: handTotal(dealerCards).total },
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
  return { state: { ...state, shoe, round: settledRound, scores }, effects };
}

/** Shoe exhausted mid-round (practically impossible before the cut card): void and refund. */
function voidRound(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  const round = state.round!;
  effects.push(event('round-voided', { round: round.number, reason: 'virtual shoe exhausted' }));
  return {
    state: {
      ...state,
      round: { ...round, phase: 'void', turn: -1, dealer: { ...round.dealer, revealed: true } },
    },
    effects,
  };
}

export function scoreKey(s: Pick<SeatRound, 'seat' | 'occupant'>): string {
  return s.occupant.kind === 'player' ? s.occupant.playerId : `bot:${s.seat}`;
}

/** The seat whose decision is awaited, or null. */
export function seatToAct(state: EuropeanState): number | null {
  const r = state.round;
  if (!r || r.phase !== 'playing' || r.turn < 0) return null;
  return r.seats[r.turn].seat;
}

/**
 * What a seat's bot (or player) may see at its decision: its hands, the face-up cards and the
 * legal actions. Built field by field from visible parts only: the hidden card and the shoe are
 * not reachable from the result.
 */
export function botView(state: EuropeanState, seatNumber: number): BotView | Rejection {
  const round = state.round;
  if (!round || round.phase !== 'playing') {
    return { code: 'wrong-phase', message: 'no round in progress' };
  }
  const seat = round.seats.find((s) => s.seat === seatNumber);
  if (!seat) return { code: 'unknown-seat', message: `seat ${seatNumber} has no bet` };
  const isTurn = round.seats[round.turn]?.seat === seatNumber;
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
