import { cardCode, parseCardCode } from '@studio/cards';
import { dealerPeeks, insuranceOffered } from '../core/dealer';
import { event, reject } from '../core/engine';
import { handTotal, isBlackjack } from '../core/hand';
import { halfOf } from '../core/money';
import {
  applyAction,
  autoPlayAction,
  currentHandIndex,
  dealToPlayer,
  handAwaitingCard,
  isPlayerAction,
  legalActions,
  PlayerAction,
} from '../core/player-hands';
import { closeBetting } from './betting';
import { currentSeat, luxDealerCards, luxExpectedCard, prompt } from './expected-card';
import { dealerNext, dealerTurn, endRound } from './round-end';
import { roundOver, seatAt, withSeat } from './seats';
import { LuxBehindBet, LuxSeat, LuxState } from './state';
import { continueAfter, LuxEffect, LuxInput, LuxStep, timer } from './step';

// ---- dealing, insurance and the seats' turns ----------------------------------------------------

export function applyCard(state: LuxState, text: string): LuxStep {
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

/** Reveals the hole card and settles without drawing further cards. */ // ---- turns ---------------------------------------------------------------------------------------

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

export function decision(
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

export function preDecision(
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

export function followChoice(
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

export function insurance(
  state: LuxState,
  seatNo: number,
  playerId: string,
  take: boolean,
): LuxStep {
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

export function closeWindow(state: LuxState): LuxStep {
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
