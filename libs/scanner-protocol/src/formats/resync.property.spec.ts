import fc from 'fast-check';
import { CODE_BY_INDEX } from '../card-table';
import type { OutgoingFrame, ScannerReading } from '../reading';
import { LineDecoder, LineEncoder } from './line';
import { StudioFramedV1Decoder, StudioFramedV1Encoder } from './studio-framed-v1';

/**
 * The property proved for studio-framed-v1 (docs/scanner-protocol.md, "Resynchronisation"):
 *
 *   For any list of valid frames F1..Fn, any garbage byte strings G0..Gn (arbitrary bytes, STX and
 *   ETX included) such that no Gi on its own contains a complete valid frame, and any split of
 *   G0 F1 G1 ... Fn Gn into chunks, the decoder never throws, its buffer never exceeds the maximum
 *   frame size, the readings whose bytes are exactly some Fi are F1..Fn in order, each once, and
 *   the raw bytes of all readings concatenated are exactly the input (nothing lost or invented).
 *
 * It holds because a frame contains neither STX nor ETX: its STX ends whatever garbage came before
 * (a partial frame is reported as truncated) and its ETX ends the frame before the next garbage.
 */

const AT = 1_764_400_000_000;

const outgoingFrame: fc.Arbitrary<OutgoingFrame> = fc.oneof(
  fc.integer({ min: 0, max: 51 }).map((i) => ({ kind: 'card', code: CODE_BY_INDEX[i] }) as const),
  fc
    .constantFrom('NOREAD', 'PARTIAL', 'DOUBLE')
    .map((code) => ({ kind: 'unrecognised', code }) as const),
  fc.constant({ kind: 'heartbeat' } as const),
  fc.constantFrom('READY', 'SHOE-OUT').map((status) => ({ kind: 'status', status }) as const),
);

/** Garbage biased towards the protocol's own delimiters and digits, where resync bugs hide. */
const garbage = fc.array(
  fc.oneof(
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(0x02, 0x03, 0x2c, 0x3a, 0x30, 0x43, 0x0a, 0x0d),
  ),
  { maxLength: 40 },
);

function decodeInChunks(
  decoder: {
    push(c: Uint8Array, at: number): ScannerReading[];
    flush(at: number): ScannerReading[];
    bufferedBytes: number;
  },
  input: Uint8Array,
  cuts: number[],
  maxBuffered: number,
): ScannerReading[] {
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  const readings: ScannerReading[] = [];
  let from = 0;
  for (const to of [...points, input.length]) {
    readings.push(...decoder.push(input.subarray(from, to), AT));
    if (decoder.bufferedBytes > maxBuffered)
      throw new Error(`buffer grew to ${decoder.bufferedBytes}`);
    from = to;
  }
  readings.push(...decoder.flush(AT));
  return readings;
}

function describeReading(r: ScannerReading): unknown {
  switch (r.kind) {
    case 'card':
      return { kind: 'card', code: r.code, sequence: r.sequence };
    case 'unrecognised':
      return { kind: 'unrecognised', code: r.code, sequence: r.sequence };
    case 'status':
      return { kind: 'status', status: r.status, sequence: r.sequence };
    default:
      return { kind: r.kind, sequence: r.sequence };
  }
}

describe('resynchronisation property', () => {
  it('studio-framed-v1: every valid frame amid arbitrary garbage is decoded exactly once, in order', () => {
    const encoder = new StudioFramedV1Encoder();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(outgoingFrame, garbage), { maxLength: 12 }),
        garbage,
        fc.array(fc.nat(), { maxLength: 12 }),
        (framesAndGarbage, leading, cuts) => {
          // Garbage that by chance holds a whole valid frame would be a real frame: excluded.
          const decodesToNothing = (g: number[]) =>
            new StudioFramedV1Decoder()
              .push(Uint8Array.from(g), AT)
              .every((r) => r.kind === 'invalid');
          fc.pre([leading, ...framesAndGarbage.map(([, g]) => g)].every(decodesToNothing));

          const frames = framesAndGarbage.map(([frame], i) => encoder.encode(frame, i + 1));
          const parts: Uint8Array[] = [Uint8Array.from(leading)];
          framesAndGarbage.forEach(([, g], i) => parts.push(frames[i], Uint8Array.from(g)));
          const input = Buffer.concat(parts);

          const readings = decodeInChunks(new StudioFramedV1Decoder(), input, cuts, 64);

          const fromFrames = readings.filter((r) =>
            frames.some((f) => Buffer.compare(Buffer.from(f), Buffer.from(r.raw)) === 0),
          );
          expect(fromFrames.map(describeReading)).toEqual(
            framesAndGarbage.map(([frame], i) =>
              describeReading({
                ...frame,
                sequence: i + 1,
                raw: frames[i],
                receivedAt: AT,
              } as ScannerReading),
            ),
          );
          expect(readings.filter((r) => r.kind !== 'invalid')).toHaveLength(frames.length);
          expect(Buffer.concat(readings.map((r) => r.raw))).toEqual(input);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('line: every card line amid garbage lines is decoded exactly once, in order; bytes are all kept', () => {
    const encoder = new LineEncoder();
    // In line mode a line is the frame: garbage is whole lines (anything without LF, then LF).
    const garbageLine = fc
      .array(
        fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a),
        { maxLength: 80 },
      )
      .map((bytes) => [...bytes, 0x0a]);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 51 }), fc.array(garbageLine, { maxLength: 2 })),
          {
            maxLength: 12,
          },
        ),
        fc.array(fc.nat(), { maxLength: 12 }),
        (cardsAndGarbage, cuts) => {
          const parts: Uint8Array[] = [];
          for (const [index, lines] of cardsAndGarbage) {
            parts.push(encoder.encode({ kind: 'card', code: CODE_BY_INDEX[index] }));
            for (const line of lines) parts.push(Uint8Array.from(line));
          }
          const input = Buffer.concat(parts);
          const readings = decodeInChunks(new LineDecoder(), input, cuts, 64);
          const garbageIsCard = (line: number[]) =>
            new LineDecoder().push(Uint8Array.from(line), AT).some((r) => r.kind === 'card');
          const expected = cardsAndGarbage.flatMap(([index, lines]) => [
            CODE_BY_INDEX[index],
            ...lines
              .filter(garbageIsCard)
              .map(
                (l) => (new LineDecoder().push(Uint8Array.from(l), AT)[0] as { code: string }).code,
              ),
          ]);
          expect(
            readings.filter((r) => r.kind === 'card').map((r) => (r as { code: string }).code),
          ).toEqual(expected);
          expect(Buffer.concat(readings.map((r) => r.raw))).toEqual(input);
        },
      ),
      { numRuns: 300 },
    );
  });
});
