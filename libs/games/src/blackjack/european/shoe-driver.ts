import { CardCode, cardCode, parseCardCode, ShoeComposition } from '@studio/cards';
import { event, isRejected, reject } from '../core/engine';
import {
  europeanExpectedCard,
  roundInProgress,
  stepEuropeanRound,
  voidEuropeanRound,
} from './engine';
import {
  EuropeanEffect,
  EuropeanRoundInput,
  EuropeanState,
  EuropeanStep,
  ShuffleRecord,
  VirtualShoe,
} from './state';

/**
 * A thin driver around the card-input engine for bots, simulations and tests: it holds a loaded
 * virtual shoe and, after each input, deals the engine every card it expects from that shoe. The
 * practice table in the service does not use it: the table deals from its own recorded shoe.
 */
export type EuropeanInput =
  | {
      readonly type: 'load-shoe';
      readonly order: readonly CardCode[];
      readonly shuffle: ShuffleRecord;
    }
  | EuropeanRoundInput;

/** A new shoe is needed before the next round (none loaded, or the cut card was passed). */
export function needsShoe(state: EuropeanState): boolean {
  return !state.shoe || state.shoe.next >= state.config.cutCardAt;
}

export function stepEuropean(state: EuropeanState, input: EuropeanInput): EuropeanStep {
  if (input.type === 'load-shoe') return loadShoe(state, input.order, input.shuffle);
  if (input.type === 'card') return reject('wrong-phase', 'the driver deals from its own shoe');
  if (input.type === 'start-round') {
    if (roundInProgress(state)) return reject('wrong-phase', 'a round is in progress');
    if (needsShoe(state)) return reject('wrong-phase', 'the shoe must be (re)shuffled first');
    const shoe = state.shoe!;
    input = { ...input, firstCardIndex: shoe.next, shoeNumber: shoe.shoeNumber };
  }
  const stepped = stepEuropeanRound(state, input);
  if (isRejected(stepped)) return stepped;
  return dealFromShoe(stepped.state, [...stepped.effects]);
}

/** Deals every card the engine expects; an exhausted shoe voids the round. */
function dealFromShoe(state: EuropeanState, effects: EuropeanEffect[]): EuropeanStep {
  while (state.shoe && europeanExpectedCard(state)) {
    const shoe = state.shoe;
    if (shoe.next >= shoe.order.length) {
      const voided = voidEuropeanRound(state, 'virtual shoe exhausted');
      if (isRejected(voided)) return voided;
      return { state: voided.state, effects: [...effects, ...voided.effects] };
    }
    const card = shoe.order[shoe.next];
    const dealt = stepEuropeanRound(
      { ...state, shoe: { ...shoe, next: shoe.next + 1 } },
      {
        type: 'card',
        card,
      },
    );
    if (isRejected(dealt)) return dealt;
    state = dealt.state;
    effects.push(...dealt.effects);
  }
  return { state, effects };
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
