import { ingest, IngestionState, initialIngestionState } from '../ingestion';
import type { ScannerReading } from '../reading';
import { LineDecoder, LineEncoder } from './line';

const AT = 1_764_400_000_000;

function decode(input: string | Buffer, decoder = new LineDecoder()): ScannerReading[] {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'latin1') : input;
  return [...decoder.push(bytes, AT), ...decoder.flush(AT)];
}

describe('line decoder: one line of each kind', () => {
  it.each<[string, Partial<ScannerReading>]>([
    ['AS\n', { kind: 'card', code: 'AS' }],
    ['AS\r\n', { kind: 'card', code: 'AS' }],
    ['10H\n', { kind: 'card', code: 'TH' }],
    ['Td\n', { kind: 'card', code: 'TD' }],
    ['  kc \t\n', { kind: 'card', code: 'KC' }],
    ['NOREAD\r\n', { kind: 'unrecognised', code: 'NOREAD', reason: 'unknown-card-code' }],
    ['??\n', { kind: 'unrecognised', code: '??' }],
    ['1S\n', { kind: 'unrecognised', code: '1S' }],
    ['ZZ\n', { kind: 'unrecognised', code: 'ZZ' }],
    ['\r\n', { kind: 'invalid', reason: 'blank-line' }],
    ['A\x00S\n', { kind: 'invalid', reason: 'noise' }],
    ['\xff\xfe\n', { kind: 'invalid', reason: 'noise' }],
    ['QH', { kind: 'invalid', reason: 'truncated' }],
  ])('%j', (input, expected) => {
    const readings = decode(input);
    expect(readings).toHaveLength(1);
    expect(readings[0]).toMatchObject({ ...expected, receivedAt: AT });
    expect(Buffer.from(readings[0].raw).toString('latin1')).toBe(input);
    expect(readings[0].sequence).toBeUndefined();
  });

  it('applies configured aliases, including two-character ones, case-insensitively', () => {
    const decoder = new LineDecoder({ aliases: { '10S': 'TS', 'ACE-H': 'AH', '1s': 'AS' } });
    expect(decode('ace-h\n10S\n1S\n1H\n', decoder)).toMatchObject([
      { kind: 'card', code: 'AH' },
      { kind: 'card', code: 'TS' },
      { kind: 'card', code: 'AS' },
      { kind: 'unrecognised', code: '1H' },
    ]);
  });

  it('splits lines across chunks and several lines in one chunk', () => {
    const decoder = new LineDecoder();
    expect(decoder.push(Buffer.from('A'), AT)).toEqual([]);
    expect(decoder.push(Buffer.from('S\r\nKH\n7'), AT + 1)).toMatchObject([
      { kind: 'card', code: 'AS', receivedAt: AT + 1 },
      { kind: 'card', code: 'KH' },
    ]);
    expect(decoder.bufferedBytes).toBe(1);
  });

  it('supports readers that end lines with CR only', () => {
    expect(decode('AS\rKH\r', new LineDecoder({ lineEnding: 'cr' }))).toMatchObject([
      { kind: 'card', code: 'AS' },
      { kind: 'card', code: 'KH' },
    ]);
  });

  it('survives a 1 MB line with no delimiter: bounded buffer, every byte reported, next line read', () => {
    const decoder = new LineDecoder({ maxFrameBytes: 64, maxRawBytes: 4096 });
    const huge = Buffer.alloc(1024 * 1024, 0x58);
    const readings: ScannerReading[] = [];
    for (let i = 0; i < huge.length; i += 50_000) {
      readings.push(...decoder.push(huge.subarray(i, i + 50_000), AT));
      expect(decoder.bufferedBytes).toBeLessThanOrEqual(64);
    }
    readings.push(...decoder.push(Buffer.from('\nJC\n'), AT));
    expect(readings[0]).toMatchObject({ kind: 'invalid', reason: 'oversized' });
    expect(readings.at(-1)).toMatchObject({ kind: 'card', code: 'JC' });
    // One line, one failed read: the rest of it is noise, as after an oversized frame.
    expect(
      readings
        .slice(1, -1)
        .every(
          (r) =>
            r.kind === 'invalid' && r.reason === 'noise' && /rest of an oversized/.test(r.detail),
        ),
    ).toBe(true);
    expect(readings.every((r) => r.raw.length <= 4096)).toBe(true);
    expect(readings.reduce((n, r) => n + r.raw.length, 0)).toBe(huge.length + 4);
  });

  it('encodes cards and unreadable marks as CRLF lines and has no heartbeats', () => {
    const encoder = new LineEncoder();
    expect(Buffer.from(encoder.encode({ kind: 'card', code: 'TD' })).toString()).toBe('TD\r\n');
    expect(encoder.supports('heartbeat')).toBe(false);
    expect(encoder.encode({ kind: 'heartbeat' })).toHaveLength(0);
  });
});

describe('line decoder and ingestion', () => {
  it('asks one rescan for one oversized line, however long, and no supervisor', () => {
    const decoder = new LineDecoder({ maxFrameBytes: 64, maxRawBytes: 4096 });
    let state: IngestionState = initialIngestionState(8);
    const step = (input: Parameters<typeof ingest>[1]) => {
      const result = ingest(state, input);
      if ('rejected' in result) throw new Error(result.rejected.message);
      state = result.state;
      return result;
    };
    step({ type: 'expect-card', slot: 'r1/player/1', at: AT });
    // 20 KB of a reader at the wrong baud rate, then its next line.
    const line = Buffer.concat([Buffer.alloc(20_000, 0x58), Buffer.from('\n')]);
    const results = decoder.push(line, AT).map((reading) => step({ type: 'reading', reading }));
    const effects = results.flatMap((r) => r.effects.map((e) => e.type));
    expect(effects.filter((e) => e === 'rescan-required')).toHaveLength(1);
    expect(effects).not.toContain('escalate-to-supervisor');
    expect(
      step({ type: 'reading', reading: decoder.push(Buffer.from('QH\n'), AT + 1)[0] }),
    ).toMatchObject({ disposition: 'applied' });
  });
});
