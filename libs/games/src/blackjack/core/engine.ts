/**
 * The shape every blackjack engine shares: `(state, input) -> { state, effects } | { rejected }`.
 * State is plain JSON; the engine never does I/O, never reads a clock, never draws randomness.
 */

export const REJECTION_CODES = [
  'betting-closed',
  'betting-not-open',
  'wrong-phase',
  'illegal-action',
  'not-your-turn',
  'side-bet-not-offered',
  'unknown-player',
  'unknown-seat',
  'no-card-expected',
  'invalid-card',
  'composition-exceeded',
  'invalid-amount',
  'wrong-currency',
  'no-main-bet',
  'seat-taken',
  'seat-not-allowed',
  'too-many-seats',
  'no-decision-window',
  'round-over',
  'unknown-bet',
  'bet-already-cancelled',
  'bet-cancelled',
] as const;

export type RejectionCode = (typeof REJECTION_CODES)[number];

export interface Rejection {
  readonly code: RejectionCode;
  readonly message: string;
}

export type StepResult<S, E> = { state: S; effects: E[] } | { rejected: Rejection };

export function reject(code: RejectionCode, message: string): { rejected: Rejection } {
  return { rejected: { code, message } };
}

export function isRejected<S, E>(r: StepResult<S, E>): r is { rejected: Rejection } {
  return 'rejected' in r;
}

/** Timers the orchestrator sets on its own clock; it feeds the expiry back as an input. */
export type TimerName = 'betting' | 'decision' | 'insurance';

export interface TimerEffect {
  readonly type: 'set-timer';
  readonly timer: TimerName;
  readonly durationMs: number;
  /** Echoed back in the timeout input so a stale timer can be recognised and ignored. */
  readonly window: number;
}

/**
 * An event to record (always) and publish (only when `hidden` is false). Face-down cards travel in
 * hidden events, so the orchestrator stores them but cannot publish them before the reveal.
 */
export interface EventEffect<N extends string = string, P = unknown> {
  readonly type: 'event';
  readonly name: N;
  readonly hidden: boolean;
  readonly payload: P;
}

/** What the dealer is asked to do next (shown on the dealer console). */
export interface PromptEffect {
  readonly type: 'prompt';
  readonly message: string;
}

export function event<N extends string, P>(name: N, payload: P, hidden = false): EventEffect<N, P> {
  return { type: 'event', name, hidden, payload };
}
