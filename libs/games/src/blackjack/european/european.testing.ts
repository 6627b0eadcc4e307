import { CardCode, cardCode, decks } from '@studio/cards';
import { isRejected } from '../core/engine';
import { EuropeanState } from './state';
import { EuropeanInput, stepEuropean } from './shoe-driver';

/** A 6-deck shoe whose first cards are `prefix`, the rest in deck order (for the specs). */
export function stackedShoe(prefix: string): CardCode[] {
  const front = prefix.split(' ') as CardCode[];
  const rest = decks(6).map(cardCode);
  for (const c of front) rest.splice(rest.indexOf(c), 1);
  return [...front, ...rest];
}

/** One step of the table that must be accepted: a rejection fails the spec with its message. */
export function step(state: EuropeanState, input: EuropeanInput): EuropeanState {
  const r = stepEuropean(state, input);
  if (isRejected(r)) throw new Error(r.rejected.message);
  return r.state;
}
