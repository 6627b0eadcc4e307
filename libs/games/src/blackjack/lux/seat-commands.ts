import { isPlayerAction, PlayerAction } from '../core/player-hands';
import { isRejected, Rejection } from '../core/engine';
import { LuxEffect, LuxInput, LuxSeatBetRefusal, stepLux } from './engine';
import { luxCancelKey } from './cancel';
import { LUX_SEAT_COUNT, LuxState } from './state';

/**
 * The seat rules between a platform's commands and the Lux engine's inputs (games.md §3, seats):
 * a seat bet takes a free seat ("A player occupies a seat by placing a seat bet"), a bet behind or
 * a pair bet goes on a seat someone holds, one bet per type and player on a seat, and a decision
 * that names no seat goes to the one seat it can be meant for.
 */

/** A bet on a seat: `main` (the seat bet), `bet-behind`, or `pairs`; side pairs may come along. */
export interface LuxBetCommand {
  readonly playerId: string;
  readonly betType: string;
  readonly seat: number;
  readonly amount: number;
  readonly sidePairs: number;
  /** The bet's currency (absent: the table's one or default currency). */
  readonly currency?: string;
}

/** A refused command: the engine's codes, and the command-level ones. */
export interface LuxCommandRejection {
  readonly code: Rejection['code'] | 'duplicate-bet' | 'unknown-bet-type' | 'seat-required';
  readonly message: string;
}

export interface LuxBetPlaced {
  readonly state: LuxState;
  readonly effects: LuxEffect[];
  /** The bets the command placed, by bet type, as the platform's wallet takes them. */
  readonly placed: ReadonlyArray<readonly [betType: string, amount: number]>;
}

export function placeLuxBet(
  state: LuxState,
  bet: LuxBetCommand,
): LuxBetPlaced | { rejected: LuxCommandRejection } {
  const seatNo = bet.seat;
  if (!Number.isInteger(seatNo) || seatNo < 1 || seatNo > LUX_SEAT_COUNT) {
    return refuse('unknown-seat', `Lux bets name a seat 1-${LUX_SEAT_COUNT}`);
  }
  const plan = Object.hasOwn(BET_PLANS, bet.betType) ? BET_PLANS[bet.betType] : undefined;
  if (!plan) {
    return refuse(
      'unknown-bet-type',
      `Blackjack Lux bets are "main" (seat bet), "bet-behind" and "pairs" (got "${bet.betType}")`,
    );
  }
  const again = placedBets(bet).find(([t]) =>
    state.cancelled?.includes(luxCancelKey(seatNo, bet.playerId, t)),
  );
  if (again) {
    return refuse(
      'bet-cancelled',
      `${bet.playerId}'s ${again[0]} bet on seat ${seatNo} was cancelled this round`,
    );
  }
  const steps = plan(state.seats[seatNo - 1], bet);
  if (!Array.isArray(steps)) return steps;
  const effects: LuxEffect[] = [];
  let next = state;
  for (const input of steps) {
    const r = stepLux(next, input);
    if (isRejected(r)) return r;
    next = r.state;
    effects.push(...r.effects);
  }
  return { state: next, effects, placed: placedBets(bet) };
}

type LuxSeat = LuxState['seats'][number];
type BetPlan = (
  seat: LuxSeat,
  bet: LuxBetCommand,
) => LuxInput[] | { rejected: LuxCommandRejection };

/** The engine inputs each bet type becomes, or why it is refused. */
const BET_PLANS: Readonly<Record<string, BetPlan>> = {
  main: seatBetSteps,
  'bet-behind': behindBetSteps,
  pairs: pairBetSteps,
};

const currencyOf = (bet: LuxBetCommand) => (bet.currency ? { currency: bet.currency } : {});

/** Not naming the player: the id the engine knows may be a key of the platform and the player. */
function duplicate(seat: LuxSeat, bet: LuxBetCommand) {
  return refuse(
    'duplicate-bet',
    `The player already has a ${bet.betType} bet on seat ${seat.seat}`,
  );
}

const behindOf = (seat: LuxSeat, playerId: string) =>
  seat.behind.find((b) => b.playerId === playerId);

function seatBetSteps(seat: LuxSeat, bet: LuxBetCommand): ReturnType<BetPlan> {
  const { playerId } = bet;
  if (seat.playerId === playerId && seat.bet) return duplicate(seat, bet);
  const steps: LuxInput[] = [];
  // A player still seated from the last round just bets; anyone else takes the seat first.
  // Platform accounts reaching this table play for money: demo checks are the platform's.
  if (seat.playerId !== playerId) {
    steps.push({
      type: 'take-seat',
      seat: seat.seat,
      account: { playerId, demo: false, funCurrency: false },
    });
  }
  steps.push({
    type: 'seat-bet',
    ...currencyOf(bet),
    seat: seat.seat,
    playerId,
    main: bet.amount,
    pairs: bet.sidePairs,
  });
  return steps;
}

function behindBetSteps(seat: LuxSeat, bet: LuxBetCommand): ReturnType<BetPlan> {
  const behind = behindOf(seat, bet.playerId);
  if (behind && behind.main > 0) return duplicate(seat, bet);
  if (bet.sidePairs > 0 && behind && behind.pairs > 0) return duplicate(seat, bet);
  return [
    {
      type: 'behind-bet',
      ...currencyOf(bet),
      seat: seat.seat,
      playerId: bet.playerId,
      main: bet.amount,
      pairs: bet.sidePairs || (behind?.pairs ?? 0),
    },
  ];
}

function pairBetSteps(seat: LuxSeat, bet: LuxBetCommand): ReturnType<BetPlan> {
  if (bet.sidePairs > 0) return refuse('unknown-bet-type', 'A pairs bet has no side bets');
  const { playerId } = bet;
  if (seat.playerId === playerId) {
    if (!seat.bet || seat.bet.pairs > 0) return duplicate(seat, bet);
    return [
      {
        type: 'seat-bet',
        ...currencyOf(bet),
        seat: seat.seat,
        playerId,
        main: seat.bet.main,
        pairs: bet.amount,
      },
    ];
  }
  const behind = behindOf(seat, playerId);
  if (behind && behind.pairs > 0) return duplicate(seat, bet);
  return [
    {
      type: 'behind-bet',
      ...currencyOf(bet),
      seat: seat.seat,
      playerId,
      main: behind?.main ?? 0,
      pairs: bet.amount,
    },
  ];
}

/** The bets the command placed, by bet type, as the platform's wallet takes them. */
function placedBets(bet: LuxBetCommand): Array<[string, number]> {
  if (bet.betType === 'pairs') return [['pairs', bet.amount]];
  const placed: Array<[string, number]> = [[bet.betType, bet.amount]];
  if (bet.sidePairs > 0) placed.push(['pairs', bet.sidePairs]);
  return placed;
}

/**
 * A seat bet the table refused (below the table's minimum) or the wallet could not take, from a
 * player who holds the seat and has no seat bet yet: recorded, so the player loses the seat when
 * the betting countdown ends (games.md §3: no grace round for a refused seat bet). Null when the
 * refusal changes nothing (not the seat's holder, or a valid seat bet is already placed).
 */
export function refuseLuxSeatBet(
  state: LuxState,
  playerId: string,
  seatNo: number,
  reason: LuxSeatBetRefusal,
): LuxInput | null {
  const seat = Number.isInteger(seatNo) ? state.seats[seatNo - 1] : undefined;
  if (state.phase !== 'betting' || !seat || seat.playerId !== playerId || seat.bet) return null;
  return { type: 'seat-bet-failed', seat: seatNo, playerId, reason };
}

const FOLLOW_CHOICES: Record<string, { followDouble?: boolean; followSplit?: boolean }> = {
  'follow-double': { followDouble: true },
  'no-follow-double': { followDouble: false },
  'follow-split': { followSplit: true },
  'no-follow-split': { followSplit: false },
};

const PRE_PREFIX = 'pre:';

export type LuxDecisionKind = 'play' | 'insurance' | 'follow' | 'pre' | 'leave';

/**
 * The engine input for a decision command: `hit` ... `surrender` (the seated player's turn),
 * `insurance` / `no-insurance`, a bettor behind's `follow-double` / `no-follow-double` /
 * `follow-split` / `no-follow-split`, a pre-decision `pre:<action>` or `pre:none`, `leave-seat`.
 * Without a seat, the one seat the action can apply to for this player.
 */
export function luxDecisionInput(
  state: LuxState,
  playerId: string,
  action: string,
  seat?: number,
): { input: LuxInput; kind: LuxDecisionKind } | { rejected: LuxCommandRejection } {
  const kind = luxDecisionKind(action);
  if (!kind) return refuse('illegal-action', `"${action}" is not a Blackjack Lux decision`);
  const seatNo = seat !== undefined ? seat : inferSeat(state, playerId, kind);
  if (seatNo === null || !Number.isInteger(seatNo)) {
    return refuse(
      'seat-required',
      `Name the seat for "${action}" (the player has several or none)`,
    );
  }
  switch (kind) {
    case 'play':
      return {
        kind,
        input: { type: 'decision', seat: seatNo, playerId, action: action as PlayerAction },
      };
    case 'insurance':
      return {
        kind,
        input: { type: 'insurance', seat: seatNo, playerId, take: action === 'insurance' },
      };
    case 'follow':
      return {
        kind,
        input: { type: 'follow-choice', seat: seatNo, playerId, ...FOLLOW_CHOICES[action] },
      };
    case 'pre': {
      const pre = action.slice(PRE_PREFIX.length);
      const preAction = pre === 'none' ? null : (pre as PlayerAction);
      return { kind, input: { type: 'pre-decision', seat: seatNo, playerId, action: preAction } };
    }
    case 'leave':
      return { kind, input: { type: 'leave-seat', seat: seatNo, playerId } };
  }
}

export function luxDecisionKind(action: string): LuxDecisionKind | null {
  if (isPlayerAction(action)) return 'play';
  if (action === 'insurance' || action === 'no-insurance') return 'insurance';
  if (Object.hasOwn(FOLLOW_CHOICES, action)) return 'follow';
  if (action === 'leave-seat') return 'leave';
  if (action.startsWith(PRE_PREFIX)) {
    const pre = action.slice(PRE_PREFIX.length);
    return pre === 'none' || isPlayerAction(pre) ? 'pre' : null;
  }
  return null;
}

/** The one seat a decision can be meant for, when the command does not name it. */
function inferSeat(state: LuxState, playerId: string, kind: LuxDecisionKind): number | null {
  const seated = state.seats.filter((s) => s.playerId === playerId).map((s) => s.seat);
  const behind = state.seats
    .filter((s) => s.behind.some((b) => b.playerId === playerId))
    .map((s) => s.seat);
  const candidates =
    kind === 'follow' ? behind : kind === 'insurance' ? [...seated, ...behind] : seated;
  return candidates.length === 1 ? candidates[0] : null;
}

/** The seat's hand that acts now (-1: none). */
export function luxHandIndexOf(state: LuxState, seatNo: number): number {
  const seat = state.seats[seatNo - 1];
  return seat ? seat.hands.findIndex((h) => h.status !== 'closed') : -1;
}

function refuse(
  code: LuxCommandRejection['code'],
  message: string,
): { rejected: LuxCommandRejection } {
  return { rejected: { code, message } };
}
