import { EventEffect, PromptEffect, StepResult, TimerEffect, TimerName } from '../core/engine';
import { PlayerAction } from '../core/player-hands';
import { InfiniteSideBet, InfiniteState } from './state';

/** What the Infinite engine takes and returns, and the plumbing its steps share. */

export type InfiniteDecision = PlayerAction | 'insurance' | 'no-insurance';

export interface InfiniteBetInput {
  readonly playerId: string;
  readonly main: number;
  readonly side?: Readonly<Partial<Record<InfiniteSideBet, number>>>;
}

export interface InfiniteDecisionInput {
  readonly playerId: string;
  readonly action: InfiniteDecision;
}

/** One refused item of a `bets` / `decisions` batch: `index` is its position in the batch. */
export interface InfiniteBatchRejection {
  readonly index: number;
  readonly playerId: string;
  readonly code: string;
  readonly message: string;
}

export type InfiniteInput =
  | { readonly type: 'open-betting'; readonly roundId: string; readonly roundOfShoe: number }
  | ({ readonly type: 'bet' } & InfiniteBetInput)
  | { readonly type: 'bets'; readonly bets: readonly InfiniteBetInput[] }
  | { readonly type: 'cancel-bet'; readonly playerId: string }
  | { readonly type: 'close-betting' }
  | { readonly type: 'card'; readonly card: string }
  | ({ readonly type: 'decision' } & InfiniteDecisionInput)
  | { readonly type: 'decisions'; readonly decisions: readonly InfiniteDecisionInput[] }
  | { readonly type: 'close-window' }
  | { readonly type: 'timeout'; readonly timer: TimerName; readonly window: number }
  | { readonly type: 'void'; readonly reason: string };

export type InfiniteEffect = EventEffect | TimerEffect | PromptEffect;
export type InfiniteStep = StepResult<InfiniteState, InfiniteEffect>;

export function continueAfter(step: InfiniteStep, before: InfiniteEffect[]): InfiniteStep {
  if ('rejected' in step) return step;
  return { state: step.state, effects: [...before, ...step.effects] };
}

export function timer(name: TimerName, durationMs: number, window: number): TimerEffect {
  return { type: 'set-timer', timer: name, durationMs, window };
}
