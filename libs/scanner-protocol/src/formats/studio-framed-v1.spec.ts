import { asciiBytes } from './bytes';
import {
  STUDIO_FRAMED_V1,
  StudioFramedV1Decoder,
  StudioFramedV1Encoder,
  studioFramedV1Frame,
} from './studio-framed-v1';
import type { ScannerReading } from '../reading';

const AT = 1_764_400_000_000;

function decodeAll(bytes: Uint8Array, decoder = new StudioFramedV1Decoder()): ScannerReading[] {
  return [...decoder.push(bytes, AT), ...decoder.flush(AT + 1)];
}

function text(raw: Uint8Array): string {
  return Buffer.from(raw).toString('latin1');
}

describe('studio-framed-v1 decoder: one frame of each kind', () => {
  it.each<[string, string, Partial<ScannerReading>]>([
    ['card', 'C:AS', { kind: 'card', code: 'AS', card: { rank: 'A', suit: 'S' } }],
    ['ten card', 'C:TH', { kind: 'card', code: 'TH', card: { rank: 'T', suit: 'H' } }],
    [
      'unreadable card',
      'U:NOREAD',
      { kind: 'unrecognised', code: 'NOREAD', reason: 'reader-reported' },
    ],
    ['status', 'S:SHOE-OUT', { kind: 'status', status: 'SHOE-OUT' }],
    ['heartbeat', 'H', { kind: 'heartbeat' }],
    ['impossible card code', 'C:ZZ', { kind: 'invalid', reason: 'impossible-card-code' }],
    ['card code too long', 'C:10H', { kind: 'invalid', reason: 'impossible-card-code' }],
    ['lower-case card code', 'C:as', { kind: 'invalid', reason: 'impossible-card-code' }],
    ['unknown frame type', 'X:1', { kind: 'invalid', reason: 'malformed' }],
    ['heartbeat with data', 'H:1', { kind: 'invalid', reason: 'malformed' }],
    ['status without data', 'S', { kind: 'invalid', reason: 'malformed' }],
    ['unreadable code with a space', 'U:NO READ', { kind: 'invalid', reason: 'malformed' }],
    ['missing colon', 'CAS', { kind: 'invalid', reason: 'malformed' }],
  ])('%s (%s)', (_name, payload, expected) => {
    const frame = studioFramedV1Frame(42, payload);
    const readings = decodeAll(frame);
    expect(readings).toHaveLength(1);
    expect(readings[0]).toMatchObject({ ...expected, raw: frame, receivedAt: AT });
    // Every authentic frame carries its sequence number, even when its content is bad.
    expect(readings[0].sequence).toBe(42);
  });

  it('encodes a card as the documented example bytes', () => {
    // docs/scanner-protocol.md: STX "00042,C:AS,<crc>" ETX
    const bytes = new StudioFramedV1Encoder().encode({ kind: 'card', code: 'AS' }, 42);
    expect(text(bytes)).toBe('\x0200042,C:AS,E22B\x03');
    expect(text(studioFramedV1Frame(43, 'U:NOREAD'))).toBe('\x0200043,U:NOREAD,DF4E\x03');
    expect(text(studioFramedV1Frame(44, 'H'))).toBe('\x0200044,H,FE1B\x03');
    expect(text(studioFramedV1Frame(45, 'S:READY'))).toBe('\x0200045,S:READY,6462\x03');
  });

  it('rejects a wrong checksum and says both values', () => {
    const good = text(studioFramedV1Frame(7, 'C:KD'));
    const crc = good.slice(-5, -1);
    const bad = `${good.slice(0, -5)}${crc === '0000' ? '0001' : '0000'}\x03`;
    const [reading] = decodeAll(asciiBytes(bad));
    expect(reading).toMatchObject({ kind: 'invalid', reason: 'bad-checksum' });
    expect(reading.sequence).toBeUndefined(); // an unauthenticated sequence number is not trusted
    expect((reading as { detail: string }).detail).toMatch(
      /checksum [0-9A-F]{4} but content gives/,
    );
  });

  it.each([
    ['too short', '\x020001,H,1234\x03'],
    ['sequence not digits', '\x020004A,H,1234\x03'],
    ['checksum not hex', '\x0200001,H,12G4\x03'],
    ['no commas', '\x0200001H1234567\x03'],
  ])('reports a malformed frame: %s', (_name, frame) => {
    expect(decodeAll(asciiBytes(frame))).toMatchObject([{ kind: 'invalid', reason: 'malformed' }]);
  });

  it('reports bytes outside frames as noise, keeping every byte', () => {
    const frame = studioFramedV1Frame(1, 'C:7C');
    const input = Buffer.concat([Buffer.from('zz\r\n'), frame, Buffer.from([0x03, 0xff])]);
    const readings = decodeAll(input);
    expect(readings.map((r) => [r.kind, r.kind === 'invalid' ? r.reason : ''])).toEqual([
      ['invalid', 'noise'],
      ['card', ''],
      ['invalid', 'noise'],
    ]);
    expect(Buffer.concat(readings.map((r) => r.raw))).toEqual(input);
  });

  it('reports a frame cut in half by the next frame as truncated and decodes the next one', () => {
    const first = studioFramedV1Frame(1, 'C:AS');
    const second = studioFramedV1Frame(2, 'C:KH');
    const input = Buffer.concat([first.subarray(0, 7), second]);
    const readings = decodeAll(input);
    expect(readings).toMatchObject([
      { kind: 'invalid', reason: 'truncated', raw: first.subarray(0, 7) },
      { kind: 'card', code: 'KH', sequence: 2 },
    ]);
  });

  it('reports a partial frame on flush (the port vanished mid-frame)', () => {
    const decoder = new StudioFramedV1Decoder();
    const frame = studioFramedV1Frame(9, 'C:QS');
    expect(decoder.push(frame.subarray(0, 5), AT)).toEqual([]);
    expect(decoder.bufferedBytes).toBe(5);
    expect(decoder.flush(AT + 5)).toMatchObject([
      { kind: 'invalid', reason: 'truncated', raw: frame.subarray(0, 5), receivedAt: AT + 5 },
    ]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('decodes a frame delivered one byte at a time, stamped with its last byte', () => {
    const decoder = new StudioFramedV1Decoder();
    const frame = studioFramedV1Frame(3, 'C:9D');
    const readings = [...frame].flatMap((b, i) => decoder.push(Uint8Array.of(b), AT + i));
    expect(readings).toMatchObject([
      { kind: 'card', code: '9D', receivedAt: AT + frame.length - 1 },
    ]);
  });

  it('bounds a 1 MB frame with no ETX: one oversized reading, the rest as noise, memory bounded', () => {
    const decoder = new StudioFramedV1Decoder({ maxFrameBytes: 64, maxRawBytes: 4096 });
    const huge = Buffer.alloc(1024 * 1024, 0x41);
    huge[0] = 0x02;
    const readings: ScannerReading[] = [];
    for (let i = 0; i < huge.length; i += 65536) {
      readings.push(...decoder.push(huge.subarray(i, i + 65536), AT));
      expect(decoder.bufferedBytes).toBeLessThanOrEqual(64);
    }
    readings.push(...decoder.push(studioFramedV1Frame(5, 'C:2S'), AT));
    expect(readings[0]).toMatchObject({ kind: 'invalid', reason: 'oversized' });
    expect(readings[0].raw.length).toBe(63);
    expect(readings.every((r) => r.raw.length <= 4096)).toBe(true);
    expect(readings.at(-1)).toMatchObject({ kind: 'card', code: '2S' });
    expect(readings.slice(1, -1).every((r) => r.kind === 'invalid' && r.reason === 'noise')).toBe(
      true,
    );
    expect(readings.reduce((n, r) => n + r.raw.length, 0)).toBe(huge.length + 17); // 17 = the card frame
  });

  it('classifies sequence numbers: first, next, repeat, gap (with the count), wrap-around, backwards', () => {
    const decoder = new StudioFramedV1Decoder();
    const seqs = [99_998, 99_999, 0, 0, 4, 2, 3, 49_000, 99_500, 10];
    const readings = seqs.flatMap((s) => decoder.push(studioFramedV1Frame(s, 'H'), AT));
    expect(readings.map((r) => [r.sequence, r.sequenceCheck, r.missedFrames])).toEqual([
      [99_998, 'first', undefined],
      [99_999, 'next', undefined],
      [0, 'next', undefined],
      [0, 'repeat', undefined],
      [4, 'gap', 3],
      [2, 'backwards', undefined],
      [3, 'next', undefined], // counting goes on from the number it went back to
      [49_000, 'gap', 48_996],
      [99_500, 'backwards', undefined], // 50,500 ahead is more likely 49,500 back
      [10, 'gap', 509], // a wrap: 99,500 -> 10
    ]);
  });

  it('names its wire format', () => {
    expect(new StudioFramedV1Decoder().wireFormat).toBe(STUDIO_FRAMED_V1);
  });
});
