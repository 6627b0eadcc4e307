import { CardCode, ShoeComposition, parseCardCode } from '@studio/cards';
import {
  LineDecoder,
  LineEncoder,
  ScannerReading,
  StudioFramedV1Decoder,
  StudioFramedV1Encoder,
} from '@studio/scanner-protocol';
import { shuffledShoe, stackedShoe, VirtualShoe } from './virtual-shoe';

const AT = 1_764_400_000_000;

describe('virtual shoe', () => {
  it('deals a stacked order again and again with its suits rotated, a legal composition throughout', () => {
    const pattern = ['KC', '4S', '4H', '2D', '5S'] as const;
    const shoe = new VirtualShoe({
      seed: 1,
      decks: 2,
      encoder: new LineEncoder(),
      stacked: [...pattern],
    });
    const dealt = Array.from({ length: 40 }, () =>
      shoe.drawNext().filter((e) => e.kind === 'card'),
    ).flatMap((e) => e.map((x) => x.card));
    expect(dealt.slice(0, 5)).toEqual(pattern);
    expect(dealt.slice(5, 10)).toEqual(['KS', '4H', '4D', '2C', '5H']);
    expect(dealt.slice(20, 25)).toEqual(pattern);
    // Rank 4 twice in the pattern: each 4 comes twice every four repetitions, 2 decks allow 4.
    expect(stackedShoe([...pattern], 2)).toHaveLength(5 * 4);
    let composition = ShoeComposition.empty(2);
    for (const code of stackedShoe([...pattern], 2)) {
      const added = composition.add(parseCardCode(code)!);
      if (!added.ok) throw new Error(`one ${code} too many`);
      composition = added.composition;
    }
    expect(() => stackedShoe(['AS', 'AS'], 8)).toThrow(/twice/);
    expect(() => stackedShoe(['1X' as CardCode], 8)).toThrow(/Not a card code/);
  });

  it('shuffles 8 decks reproducibly by seed: 416 cards, each card exactly 8 times', () => {
    const shoe = shuffledShoe(42, 8);
    expect(shoe).toHaveLength(416);
    expect(shuffledShoe(42, 8)).toEqual(shoe);
    expect(shuffledShoe(43, 8)).not.toEqual(shoe);
    let composition = ShoeComposition.empty(8);
    for (const code of shoe) {
      const added = composition.add(parseCardCode(code)!);
      if (!added.ok) throw new Error(`ninth ${code}`);
      composition = added.composition;
    }
    expect(composition.total).toBe(416);
  });

  it('sends the whole shoe in order as framed readings, each misread followed by its rescan', () => {
    const shoe = new VirtualShoe({
      seed: 7,
      decks: 8,
      encoder: new StudioFramedV1Encoder(),
      misreadRate: 0.05,
    });
    const decoder = new StudioFramedV1Decoder();
    const emissions = Array.from({ length: 416 }, () => shoe.drawNext()).flat();
    const readings = emissions.flatMap((e) => decoder.push(e.bytes, AT));
    expect(
      readings.filter((r) => r.kind === 'card').map((r) => (r as { code: string }).code),
    ).toEqual(shuffledShoe(7, 8));
    const misreads = emissions.filter((e) => e.kind === 'misread').length;
    expect(readings.filter((r) => r.kind === 'unrecognised')).toHaveLength(misreads);
    // 5% of ~436 scans: the seed gives a figure in a plausible band, not zero.
    expect(misreads).toBeGreaterThan(5);
    expect(misreads).toBeLessThan(45);
    expect(readings.every((r: ScannerReading) => r.sequenceCheck !== 'gap')).toBe(true);
  });

  it('in line mode keeps noise on lines of its own and sends duplicates as repeated lines', () => {
    const shoe = new VirtualShoe({
      seed: 3,
      decks: 1,
      encoder: new LineEncoder(),
      noiseRate: 0.3,
      duplicateRate: 0.2,
    });
    const decoder = new LineDecoder();
    const emissions = Array.from({ length: 52 }, () => shoe.drawNext()).flat();
    const cards = emissions
      .flatMap((e) => decoder.push(e.bytes, AT))
      .filter((r) => r.kind === 'card')
      .map((r) => (r as { code: string }).code);
    const duplicates = emissions.filter((e) => e.kind === 'duplicate').length;
    expect(duplicates).toBeGreaterThan(0);
    expect(emissions.some((e) => e.kind === 'noise')).toBe(true);
    expect(cards).toHaveLength(52 + duplicates);
    expect([...new Set(cards)].sort()).toEqual([...shuffledShoe(3, 1)].sort());
  });

  it('reshuffles when the shoe is empty and says so with a status frame', () => {
    const shoe = new VirtualShoe({ seed: 1, decks: 1, encoder: new StudioFramedV1Encoder() });
    for (let i = 0; i < 52; i += 1) shoe.drawNext();
    expect(shoe.remaining).toBe(0);
    const next = shoe.drawNext();
    expect(next[0].kind).toBe('status');
    expect(Buffer.from(next[0].bytes).toString('latin1')).toContain('S:NEW-SHOE');
    expect(shoe.remaining).toBe(51);
  });

  it('starts a given shoe number on demand with the order an exhausted shoe would move on to', () => {
    const shoe = new VirtualShoe({ seed: 10, decks: 1, encoder: new StudioFramedV1Encoder() });
    shoe.drawNext();
    const announced = shoe.newShoe(3);
    expect(Buffer.from(announced[0].bytes).toString('latin1')).toContain('S:NEW-SHOE');
    const drawn = Array.from({ length: 52 }, () => shoe.drawNext()[0].card);
    expect(drawn).toEqual(shuffledShoe(12, 1)); // shoe 3 uses seed + 2
  });

  it('sends heartbeats only in formats that have them', () => {
    expect(
      new VirtualShoe({ seed: 1, decks: 1, encoder: new StudioFramedV1Encoder() }).heartbeat(),
    ).toHaveLength(1);
    expect(
      new VirtualShoe({ seed: 1, decks: 1, encoder: new LineEncoder() }).heartbeat(),
    ).toHaveLength(0);
  });

  it('resumes a shoe where the table stands: the rest of its order, no card dealt again', () => {
    const order = shuffledShoe(7 + 2, 1); // shoe number 3 of seed 7
    const dealt = order.slice(0, 20);
    const shoe = new VirtualShoe({ seed: 7, decks: 1, encoder: new StudioFramedV1Encoder() });
    shoe.resume(3, dealt);
    expect(shoe.remaining).toBe(32);
    const rest = Array.from({ length: 32 }, () => shoe.drawNext())
      .flat()
      .filter((e) => e.kind === 'card')
      .map((e) => e.card);
    expect(rest).toEqual(order.slice(20));
    expect(rest.filter((card) => dealt.includes(card!))).toEqual([]);
  });
});
