import type { EventEffect, PromptEffect, TimerEffect } from '@studio/games/blackjack';
import type { AdapterStep, RoundEvent } from '../game-adapter';

/** What the blackjack engines return beside their state. */
export type BlackjackEngineEffect = EventEffect | TimerEffect | PromptEffect;

/** An engine event as the table records it: `hole-card-revealed` becomes `HoleCardRevealed`. */
export function roundEventOf(effect: EventEffect): RoundEvent {
  return {
    type: pascal(effect.name),
    visibility: effect.hidden ? 'restricted' : 'public',
    payload: (effect.payload ?? {}) as Record<string, unknown>,
  };
}

/**
 * An accepted step of an engine that runs its own windows (Infinite, Lux) as the table records
 * it: the timers it sets, its events (a hidden one restricted), the hole card's reveal. Prompts
 * are the dealer console's, not records; the engine's `round-voided` is dropped because the table
 * announces a void itself (RoundVoided, with who approved it). `onEvent` adds what a game records
 * beside an event.
 */
export function recordEngineStep<S>(
  state: S,
  effects: readonly BlackjackEngineEffect[],
  onEvent?: (effect: EventEffect, out: AdapterStep<S>) => void,
): AdapterStep<S> {
  const out: AdapterStep<S> = { state, events: [], timers: [] };
  for (const effect of effects) {
    if (effect.type === 'set-timer') {
      out.timers!.push({ name: effect.timer, durationMs: effect.durationMs, token: effect.window });
      continue;
    }
    if (effect.type === 'prompt' || effect.name === 'round-voided') continue;
    out.events.push(roundEventOf(effect));
    if (effect.name === 'hole-card-revealed') out.reveals = [...(out.reveals ?? []), 'dealer-hole'];
    onEvent?.(effect, out);
  }
  return out;
}

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}
