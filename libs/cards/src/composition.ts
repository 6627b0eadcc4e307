import { Card, cardCode, cardIndex, CARDS_PER_DECK } from './card';

export type CompositionCheck =
  | { ok: true }
  | { ok: false; reason: 'exceeds-deck-count'; card: string; seen: number; allowed: number };

/**
 * Counts how many of each card a shoe has produced. Within one shoe of N decks no card (rank and
 * suit) can appear more than N times; a reading that would exceed that is an integrity error.
 * Serialisable as a plain array of 52 counts.
 */
export class ShoeComposition {
  private constructor(
    readonly deckCount: number,
    private readonly counts: number[],
  ) {}

  static empty(deckCount: number): ShoeComposition {
    if (!Number.isInteger(deckCount) || deckCount < 1) {
      throw new RangeError(`A shoe needs a whole number of decks >= 1 (got ${deckCount})`);
    }
    return new ShoeComposition(deckCount, new Array(CARDS_PER_DECK).fill(0));
  }

  static fromJSON(json: { deckCount: number; counts: readonly number[] }): ShoeComposition {
    if (json.counts.length !== CARDS_PER_DECK) throw new Error('Composition needs 52 counts');
    return new ShoeComposition(json.deckCount, [...json.counts]);
  }

  toJSON(): { deckCount: number; counts: number[] } {
    return { deckCount: this.deckCount, counts: [...this.counts] };
  }

  seen(c: Card): number {
    return this.counts[cardIndex(c)];
  }

  get total(): number {
    return this.counts.reduce((a, b) => a + b, 0);
  }

  /** Whether one more of this card is possible in this shoe. */
  check(c: Card): CompositionCheck {
    const seen = this.counts[cardIndex(c)];
    return seen < this.deckCount
      ? { ok: true }
      : {
          ok: false,
          reason: 'exceeds-deck-count',
          card: cardCode(c),
          seen,
          allowed: this.deckCount,
        };
  }

  /** Returns a new composition with the card added, or the failed check. Never mutates. */
  add(
    c: Card,
  ): { ok: true; composition: ShoeComposition } | Extract<CompositionCheck, { ok: false }> {
    const check = this.check(c);
    if (!check.ok) return check;
    const counts = [...this.counts];
    counts[cardIndex(c)] += 1;
    return { ok: true, composition: new ShoeComposition(this.deckCount, counts) };
  }
}
