import { EventEffect, PromptEffect, StepResult, TimerEffect, TimerName } from '../core/engine';
import { PlayerAction } from '../core/player-hands';
import { LuxState } from './state';

/** What the Lux engine takes and returns, and the plumbing its steps share. */

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
      /** The bet's currency (absent: the table's one or default currency); limits are in it. */
      readonly currency?: string;
    }
  | {
      readonly type: 'behind-bet';
      readonly seat: number;
      readonly playerId: string;
      readonly main: number;
      readonly pairs?: number;
      /** The bet's own currency: a bet behind need not be in its seat's (each settles alone). */
      readonly currency?: string;
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
  /** The platform takes back its player's bet on a seat while betting is open. */
  | {
      readonly type: 'cancel-bet';
      readonly seat: number;
      readonly playerId: string;
      readonly betType: 'main' | 'bet-behind' | 'pairs';
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
export type LuxSettledStep = { state: LuxState; effects: LuxEffect[] };

export function continueAfter(step: LuxStep, before: LuxEffect[]): LuxStep {
  if ('rejected' in step) return step;
  return { state: step.state, effects: [...before, ...step.effects] };
}

export function timer(name: TimerName, durationMs: number, window: number): TimerEffect {
  return { type: 'set-timer', timer: name, durationMs, window };
}
