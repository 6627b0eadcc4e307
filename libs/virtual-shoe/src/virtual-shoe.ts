import { CardCode, cardCode, decks } from '@studio/cards';
import type { FrameEncoder, OutgoingFrame } from '@studio/scanner-protocol';

/**
 * The pure half of the virtual card shoe: a seeded shuffle of N decks and the exact bytes a reader
 * would send for each card, with knobs for misreads, line noise and duplicated frames. No I/O and no
 * clock: the writer (shoe-writer.ts) decides when the bytes go out.
 */
export interface VirtualShoeOptions {
  seed: number;
  decks: number;
  encoder: FrameEncoder;
  /** Chance that one scan of a card fails (each rescan fails again with the same chance). */
  misreadRate?: number;
  /** Chance that a burst of line noise precedes a card. */
  noiseRate?: number;
  /** Chance that a card frame is sent twice (same sequence number). */
  duplicateRate?: number;
  /** Rescans after which a misread card is always read (keeps a shoe finite). */
  maxMisreadsPerCard?: number;
  /**
   * A stacked shoe (tests, drills): instead of a shuffle, this order is dealt from the top and
   * repeated with its suits rotated (see stackedShoe), e.g. a round's worth of cards that makes
   * every player win. `seed` then only drives the misreads and noise.
   */
  stacked?: readonly CardCode[];
}

export type EmissionKind = 'card' | 'misread' | 'noise' | 'duplicate' | 'heartbeat' | 'status';

export interface Emission {
  kind: EmissionKind;
  bytes: Uint8Array;
  /** The card being scanned (card, misread and duplicate emissions). */
  card?: CardCode;
  sequence: number;
}

/** mulberry32: small, fast, good enough to shuffle a demo shoe reproducibly. Not for real games. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffledShoe(seed: number, deckCount: number): CardCode[] {
  const random = seededRandom(seed);
  const shoe = decks(deckCount).map(cardCode);
  for (let i = shoe.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [shoe[i], shoe[j]] = [shoe[j], shoe[i]];
  }
  return shoe;
}

const SUIT_ROTATION: Readonly<Record<string, string>> = { S: 'H', H: 'D', D: 'C', C: 'S' };

/**
 * A fixed order repeated to fill an N-deck shoe. Repetition k has every suit rotated k times
 * (S→H→D→C), so a pattern holding each card at most once stays a legal N-deck composition (a
 * table's composition check would stop a shoe that repeats one card too often); the shoe ends
 * after as many repetitions as the composition allows.
 */
export function stackedShoe(pattern: readonly CardCode[], deckCount: number): CardCode[] {
  if (pattern.length === 0) throw new Error('A stacked shoe needs at least one card');
  const seen = new Set<string>();
  for (const card of pattern) {
    if (!/^[2-9TJQKA][SHDC]$/.test(card)) throw new Error(`Not a card code: "${card}"`);
    if (seen.has(card)) throw new Error(`A stacked pattern holds each card once; "${card}" twice`);
    seen.add(card);
  }
  // A rank that appears r times in the pattern puts each of its cards in the shoe r times every
  // four repetitions: at most N copies of a card fit an N-deck shoe.
  const perRank = new Map<string, number>();
  for (const card of pattern) perRank.set(card[0], (perRank.get(card[0]) ?? 0) + 1);
  const repetitions = Math.max(1, Math.floor((4 * deckCount) / Math.max(...perRank.values())));
  const out: CardCode[] = [];
  let current: string[] = [...pattern];
  for (let k = 0; k < repetitions; k += 1) {
    out.push(...(current as CardCode[]));
    current = current.map((c) => c.slice(0, -1) + SUIT_ROTATION[c.slice(-1)]);
  }
  return out;
}

export class VirtualShoe {
  private readonly random: () => number;
  private cards: CardCode[];
  private position = 0;
  private sequence = 0;
  private shoeNumber = 1;

  constructor(private readonly options: VirtualShoeOptions) {
    this.random = seededRandom(options.seed ^ 0x5eed);
    this.cards = this.order(options.seed);
  }

  get remaining(): number {
    return this.cards.length - this.position;
  }

  get size(): number {
    return this.cards.length;
  }

  /** Everything the reader sends while the dealer draws the next card. Reshuffles an empty shoe. */
  drawNext(): Emission[] {
    const out: Emission[] = [];
    if (this.remaining === 0) {
      this.shoeNumber += 1;
      this.cards = this.order(this.options.seed + this.shoeNumber - 1);
      this.position = 0;
      out.push(this.status('NEW-SHOE'));
    }
    const card = this.cards[this.position];
    this.position += 1;
    if (this.chance(this.options.noiseRate)) out.push(this.noise());
    const maxMisreads = this.options.maxMisreadsPerCard ?? 3;
    for (let i = 0; i < maxMisreads && this.chance(this.options.misreadRate); i += 1) {
      out.push({ ...this.frame({ kind: 'unrecognised', code: 'NOREAD' }, 'misread'), card });
    }
    const scanned = { ...this.frame({ kind: 'card', code: card }, 'card'), card };
    out.push(scanned);
    if (this.chance(this.options.duplicateRate)) out.push({ ...scanned, kind: 'duplicate' });
    return out;
  }

  /**
   * Starts shoe number `shoeNumber` now (the table reshuffled): shoe n is shuffled with seed + n - 1,
   * the same order an exhausted shoe would have moved on to. Returns the NEW-SHOE status frame.
   */
  newShoe(shoeNumber: number): Emission[] {
    this.shoeNumber = Math.max(1, Math.floor(shoeNumber));
    this.cards = this.order(this.options.seed + this.shoeNumber - 1);
    this.position = 0;
    return [this.status('NEW-SHOE')];
  }

  /**
   * Continues shoe number `shoeNumber` after a restart or a takeover, where the table stands: the
   * same order as newShoe(shoeNumber), without the cards the table already counted from it (one
   * copy removed per card dealt), so that none is dealt again. Sends nothing: the shoe never left.
   */
  resume(shoeNumber: number, alreadyDealt: readonly CardCode[]): void {
    this.shoeNumber = Math.max(1, Math.floor(shoeNumber));
    const left = [...alreadyDealt];
    this.cards = shuffledShoe(this.options.seed + this.shoeNumber - 1, this.options.decks).filter(
      (card) => {
        const i = left.indexOf(card);
        if (i < 0) return true;
        left.splice(i, 1);
        return false;
      },
    );
    this.position = 0;
  }

  /** Nothing for formats without heartbeats. */
  heartbeat(): Emission[] {
    return this.options.encoder.supports('heartbeat')
      ? [this.frame({ kind: 'heartbeat' }, 'heartbeat')]
      : [];
  }

  status(status: string): Emission {
    return this.frame({ kind: 'status', status }, 'status');
  }

  /** The cards of a new shoe: the stacked order when one is set, else a seeded shuffle. */
  private order(seed: number): CardCode[] {
    return this.options.stacked
      ? stackedShoe(this.options.stacked, this.options.decks)
      : shuffledShoe(seed, this.options.decks);
  }

  private frame(frame: OutgoingFrame, kind: EmissionKind): Emission {
    this.sequence += 1;
    return {
      kind,
      bytes: this.options.encoder.encode(frame, this.sequence),
      sequence: this.sequence,
    };
  }

  /**
   * Random bytes as a noisy line delivers them. Framed formats get them between frames; in line
   * mode they form a line of their own (noise inside a card's line would corrupt that reading).
   */
  private noise(): Emission {
    const length = 1 + Math.floor(this.random() * 16);
    const lineMode = !this.options.encoder.supports('heartbeat');
    const bytes: number[] = [];
    for (let i = 0; i < length; i += 1) {
      let b = Math.floor(this.random() * 256);
      if (lineMode && (b === 0x0a || b === 0x0d)) b = 0x00;
      if (!lineMode && (b === 0x02 || b === 0x03)) b = 0x00; // keep the next frame intact
      bytes.push(b);
    }
    if (lineMode) bytes.push(0x0d, 0x0a);
    return { kind: 'noise', bytes: Uint8Array.from(bytes), sequence: this.sequence };
  }

  private chance(rate = 0): boolean {
    return rate > 0 && this.random() < rate;
  }
}
