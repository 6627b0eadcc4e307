import { randomInt } from 'node:crypto';
import { CardCode, cardCode, decks } from '@studio/cards';

/**
 * Randomness for the virtual shoe, injected into the shuffle (never used inside the engine):
 * the engine receives the finished order and records it, so any round can be replayed.
 */
export interface RandomSource {
  /** A uniformly distributed integer in [0, maxExclusive). */
  nextInt(maxExclusive: number): number;
}

/** The production source: node:crypto's CSPRNG (rejection-sampled, unbiased). */
export const cryptoRandomSource: RandomSource = {
  nextInt: (maxExclusive) => randomInt(maxExclusive),
};

/**
 * A reproducible source for tests and replays of seeded practice sessions (mulberry32).
 * Not cryptographically secure; never the default for a table.
 */
export function seededRandomSource(seed: number): RandomSource {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { nextInt: (maxExclusive) => Math.floor(next() * maxExclusive) };
}

/** Fisher–Yates: every permutation equally likely when the source is uniform. */
export function fisherYates<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = random.nextInt(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A freshly shuffled virtual shoe of N decks, as the engine's `load-shoe` input expects it. */
export function shuffledShoe(deckCount: number, random: RandomSource): CardCode[] {
  return fisherYates(decks(deckCount).map(cardCode), random);
}
