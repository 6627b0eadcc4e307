import { BLACKJACK_BURN_VALUES, ShoeRules } from '@studio/games/shoe';

/** What the table asks of every blackjack round state. */
export interface BlackjackRound {
  readonly phase: string;
}

/**
 * What the three blackjack adapters (Infinite, Lux, European practice) have in common: a shoe of
 * the rules' decks with the blackjack burn values, and the phases the table asks about (each
 * engine names them alike: `betting`, then `settled` or `voided` when the round is over).
 */
export abstract class BlackjackAdapter<S extends BlackjackRound> {
  readonly shoeRules: ShoeRules;

  protected constructor(decks: number, sideBetLastRound: ShoeRules['sideBetLastRound'] = {}) {
    this.shoeRules = { deckCount: decks, burnValues: BLACKJACK_BURN_VALUES, sideBetLastRound };
  }

  phase(state: S): string {
    return state.phase;
  }

  isBettingOpen(state: S): boolean {
    return state.phase === 'betting';
  }

  isRoundOver(state: S): boolean {
    return state.phase === 'settled' || state.phase === 'voided';
  }
}
