import { InfiniteEffect, InfiniteInput, InfiniteState, stepInfinite } from '.';

/** Runs inputs, failing the test on any rejection; returns the final state and all effects. */
export function run(state: InfiniteState, inputs: InfiniteInput[]) {
  const effects: InfiniteEffect[] = [];
  for (const input of inputs) {
    const r = stepInfinite(state, input);
    if ('rejected' in r) throw new Error(`${input.type} rejected: ${r.rejected.message}`);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}
