import { CardCode, cardCode, parseCardCode, ShoeComposition } from '@studio/cards';
import { BurnValues } from './burn-values';

/**
 * The life of one physical shoe (games.md section 0), shared by every game dealt from a shoe:
 * burn procedure, round numbering, the cut card and the composition check. A pure state machine:
 * `(state, input) -> { state, effects } | { rejected }`, plain JSON state, no clock, no I/O.
 *
 * The shoe does not know which seat or hand a card goes to; the game engine does. The orchestrator
 * applies every drawn card to the shoe first (composition, cut card, burn) and then to the game.
 */

export interface ShoeRules {
  /** Standard 52-card decks in the shoe (N); no card may appear more than N times. */
  readonly deckCount: number;
  /** Burn values of this game for the first card of the shoe. */
  readonly burnValues: BurnValues;
  /**
   * Side bets only offered up to a round of the shoe: `{ betType: lastRoundOffered }`.
   * A bet type that is not listed is offered in every round.
   */
  readonly sideBetLastRound: Readonly<Record<string, number>>;
}

export type ShoePhase =
  /** New shoe: waiting for the first card (shown) and then the cards it makes the dealer burn. */
  | 'burning'
  /** Burn complete or previous round ended: no card is expected until a round starts. */
  | 'between-rounds'
  | 'in-round'
  /** The last round (cut card) ended or the shoe was closed: reshuffle and start a new shoe. */
  | 'finished';

export interface ShoeState {
  readonly rules: ShoeRules;
  /** Counts shoes at the table, so rounds can be named (shoe, round) uniquely. */
  readonly shoeNumber: number;
  readonly phase: ShoePhase;
  readonly burn: {
    /** The first card of the shoe, shown and then burnt; null until drawn. */
    readonly shownCard: CardCode | null;
    /** Further cards the shown card makes the dealer burn; null until the shown card is drawn. */
    readonly toBurn: number | null;
    /** Cards burnt after the shown card, in order. Hidden information until the shoe closes. */
    readonly burntCards: readonly CardCode[];
  };
  /** The current (or last played) round of this shoe, numbered from 1; 0 before the first round. */
  readonly roundNumber: number;
  /** Set when the cut card comes out: the round of the shoe that is its last round. */
  readonly lastRoundNumber: number | null;
  /** Every card drawn from this shoe, burnt or dealt. */
  readonly cardsDrawn: number;
  readonly composition: { readonly deckCount: number; readonly counts: readonly number[] };
}

export type ShoeInput =
  | { readonly type: 'card'; readonly card: CardCode }
  | { readonly type: 'cut-card-drawn' }
  | { readonly type: 'start-round' }
  | { readonly type: 'end-round' }
  /** The dealer or a supervisor ends the shoe between rounds (e.g. to replace a damaged card). */
  | { readonly type: 'close-shoe'; readonly reason: string };

export type ShoeEffect =
  | { readonly type: 'burn-card-shown'; readonly card: CardCode; readonly toBurn: number }
  | { readonly type: 'card-burnt'; readonly card: CardCode; readonly remaining: number }
  | { readonly type: 'burn-completed'; readonly burntCount: number }
  | { readonly type: 'card-drawn'; readonly card: CardCode; readonly roundNumber: number }
  | { readonly type: 'last-round-declared'; readonly roundNumber: number }
  | {
      readonly type: 'round-started';
      readonly roundNumber: number;
      readonly isLastRound: boolean;
      readonly sideBetsNoLongerOffered: readonly string[];
    }
  | { readonly type: 'round-ended'; readonly roundNumber: number }
  | {
      readonly type: 'shoe-finished';
      readonly reason: 'last-round-played' | 'closed';
      readonly detail?: string;
    };

export type ShoeRejection =
  | { readonly code: 'not-a-card'; readonly message: string }
  | { readonly code: 'no-card-expected'; readonly message: string; readonly phase: ShoePhase }
  | {
      readonly code: 'composition-exceeded';
      readonly message: string;
      readonly card: string;
      readonly seen: number;
      readonly allowed: number;
    }
  | { readonly code: 'burn-incomplete'; readonly message: string }
  | { readonly code: 'round-in-progress'; readonly message: string }
  | { readonly code: 'no-round-in-progress'; readonly message: string }
  | { readonly code: 'shoe-finished'; readonly message: string }
  | { readonly code: 'cut-card-already-drawn'; readonly message: string };

export type ShoeStep =
  | { readonly state: ShoeState; readonly effects: readonly ShoeEffect[] }
  | { readonly rejected: ShoeRejection };

export function newShoe(rules: ShoeRules, shoeNumber: number): ShoeState {
  return {
    rules,
    shoeNumber,
    phase: 'burning',
    burn: { shownCard: null, toBurn: null, burntCards: [] },
    roundNumber: 0,
    lastRoundNumber: null,
    cardsDrawn: 0,
    composition: ShoeComposition.empty(rules.deckCount).toJSON(),
  };
}

export function applyShoeInput(state: ShoeState, input: ShoeInput): ShoeStep {
  switch (input.type) {
    case 'card':
      return drawCard(state, input.card);
    case 'cut-card-drawn':
      return cutCardDrawn(state);
    case 'start-round':
      return startRound(state);
    case 'end-round':
      return endRound(state);
    case 'close-shoe':
      return closeShoe(state, input.reason);
  }
}

/** A card came out of the shoe: part of the burn procedure, or a card of the current round. */
export function drawCard(state: ShoeState, code: CardCode): ShoeStep {
  const parsed = parseCardCode(code);
  if (!parsed) return { rejected: { code: 'not-a-card', message: `Not a card code: "${code}"` } };
  if (state.phase === 'finished') return finishedRejection();
  if (state.phase === 'between-rounds') {
    return {
      rejected: {
        code: 'no-card-expected',
        message: 'No round is in progress: no card is expected from the shoe',
        phase: state.phase,
      },
    };
  }
  const added = ShoeComposition.fromJSON(state.composition).add(parsed);
  if (!added.ok) {
    return {
      rejected: {
        code: 'composition-exceeded',
        message: `${added.card} would appear ${added.seen + 1} times in a ${added.allowed}-deck shoe`,
        card: added.card,
        seen: added.seen,
        allowed: added.allowed,
      },
    };
  }
  const card = cardCode(parsed);
  const drawn: ShoeState = {
    ...state,
    composition: added.composition.toJSON(),
    cardsDrawn: state.cardsDrawn + 1,
  };
  if (state.phase === 'in-round') {
    return {
      state: drawn,
      effects: [{ type: 'card-drawn', card, roundNumber: state.roundNumber }],
    };
  }
  // Burning: the first card is shown and tells how many more to burn; it is burnt itself too.
  if (state.burn.shownCard === null) {
    const toBurn = state.rules.burnValues[parsed.rank];
    return {
      state: { ...drawn, burn: { shownCard: card, toBurn, burntCards: [] } },
      effects: [{ type: 'burn-card-shown', card, toBurn }],
    };
  }
  const toBurn = state.burn.toBurn ?? 0;
  const burntCards = [...state.burn.burntCards, card];
  const remaining = toBurn - burntCards.length;
  const effects: ShoeEffect[] = [{ type: 'card-burnt', card, remaining }];
  let phase: ShoePhase = 'burning';
  if (remaining === 0) {
    phase = 'between-rounds';
    // The shown card counts as burnt: "The shown card is burnt too."
    effects.push({ type: 'burn-completed', burntCount: burntCards.length + 1 });
  }
  return { state: { ...drawn, phase, burn: { ...state.burn, burntCards } }, effects };
}

/**
 * The dealer drew the cut card. The round in progress becomes the last round of the shoe; if no
 * round is in progress (the cut card came out during the burn), the next round is the last.
 */
export function cutCardDrawn(state: ShoeState): ShoeStep {
  if (state.phase === 'finished') return finishedRejection();
  if (state.lastRoundNumber !== null) {
    return {
      rejected: {
        code: 'cut-card-already-drawn',
        message: `The cut card was already drawn (last round ${state.lastRoundNumber})`,
      },
    };
  }
  const lastRoundNumber = state.phase === 'in-round' ? state.roundNumber : state.roundNumber + 1;
  return {
    state: { ...state, lastRoundNumber },
    effects: [{ type: 'last-round-declared', roundNumber: lastRoundNumber }],
  };
}

export function startRound(state: ShoeState): ShoeStep {
  switch (state.phase) {
    case 'finished':
      return finishedRejection();
    case 'burning':
      return {
        rejected: {
          code: 'burn-incomplete',
          message: 'The burn procedure of the new shoe is not complete',
        },
      };
    case 'in-round':
      return {
        rejected: {
          code: 'round-in-progress',
          message: `Round ${state.roundNumber} is still in progress`,
        },
      };
    case 'between-rounds':
      break;
  }
  const roundNumber = state.roundNumber + 1;
  return {
    state: { ...state, phase: 'in-round', roundNumber },
    effects: [
      {
        type: 'round-started',
        roundNumber,
        isLastRound: state.lastRoundNumber === roundNumber,
        sideBetsNoLongerOffered: sideBetsNoLongerOffered(state.rules, roundNumber),
      },
    ],
  };
}

/** The round is complete (settled or voided). After the last round the shoe is finished. */
export function endRound(state: ShoeState): ShoeStep {
  if (state.phase !== 'in-round') {
    return {
      rejected: { code: 'no-round-in-progress', message: 'No round of this shoe is in progress' },
    };
  }
  const ended: ShoeEffect = { type: 'round-ended', roundNumber: state.roundNumber };
  if (state.lastRoundNumber !== null && state.roundNumber >= state.lastRoundNumber) {
    return {
      state: { ...state, phase: 'finished' },
      effects: [ended, { type: 'shoe-finished', reason: 'last-round-played' }],
    };
  }
  return { state: { ...state, phase: 'between-rounds' }, effects: [ended] };
}

export function closeShoe(state: ShoeState, reason: string): ShoeStep {
  if (state.phase === 'finished') return finishedRejection();
  if (state.phase === 'in-round') {
    return {
      rejected: {
        code: 'round-in-progress',
        message: `Round ${state.roundNumber} must end (or be voided) before the shoe is closed`,
      },
    };
  }
  return {
    state: { ...state, phase: 'finished' },
    effects: [{ type: 'shoe-finished', reason: 'closed', detail: reason }],
  };
}

/** Whether the round in progress (or the next one, between rounds) is the last of the shoe. */
export function isLastRound(state: ShoeState): boolean {
  const round = state.phase === 'in-round' ? state.roundNumber : state.roundNumber + 1;
  return state.lastRoundNumber !== null && round >= state.lastRoundNumber;
}

/** Whether a card drawn now would be accepted by the shoe (burn or a round in progress). */
export function shoeExpectsCard(state: ShoeState): boolean {
  return state.phase === 'burning' || state.phase === 'in-round';
}

/** The number of further cards the given first card of a shoe makes the dealer burn. */
export function burnCountFor(rules: ShoeRules, code: CardCode): number {
  const parsed = parseCardCode(code);
  if (!parsed) throw new RangeError(`Not a card code: "${code}"`);
  return rules.burnValues[parsed.rank];
}

/** games.md "Round availability": a side bet is offered while the round number is within its limit. */
export function isSideBetOffered(rules: ShoeRules, betType: string, roundNumber: number): boolean {
  // betType comes from a platform: only the rules' own keys count (not `constructor`).
  if (!Object.hasOwn(rules.sideBetLastRound, betType)) return true;
  return roundNumber <= rules.sideBetLastRound[betType];
}

export function sideBetsNoLongerOffered(rules: ShoeRules, roundNumber: number): string[] {
  return Object.keys(rules.sideBetLastRound)
    .filter((betType) => !isSideBetOffered(rules, betType, roundNumber))
    .sort();
}

function finishedRejection(): { rejected: ShoeRejection } {
  return {
    rejected: {
      code: 'shoe-finished',
      message: 'This shoe is finished: reshuffle and start a new shoe',
    },
  };
}
