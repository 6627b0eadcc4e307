import { parseTableDefinitions } from '../config/tables-config';
import { parseScannerSettings } from './scanner-settings';

const WHERE = 'TABLES_FILE "t.json" table #1 ("ibj-1")';

describe('scanner settings (config/tables.json "scanner")', () => {
  it('fills in the defaults, including games.md 5 attempts / 20 s / 300 ms', () => {
    expect(
      parseScannerSettings({ wireFormat: 'studio-framed-v1', path: '/dev/ttyUSB0' }, WHERE),
    ).toEqual({
      wireFormat: 'studio-framed-v1',
      path: '/dev/ttyUSB0',
      baudRate: 9600,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
      heartbeatTimeoutMs: 5000,
      reconnectInitialDelayMs: 200,
      reconnectMaxDelayMs: 5000,
      maxFrameBytes: 64,
      lineEnding: 'lf',
      aliases: {},
      decks: 8,
      ingestion: { maxFailedAttempts: 5, escalateAfterMs: 20_000, debounceMs: 300 },
    });
  });

  it('has no heartbeat timeout for line readers, which send no heartbeats', () => {
    expect(
      parseScannerSettings({ wireFormat: 'line', path: '/dev/ttyS0' }, WHERE).heartbeatTimeoutMs,
    ).toBeNull();
  });

  it('runs a seeded virtual shoe when no path is given', () => {
    expect(
      parseScannerSettings({ wireFormat: 'line', virtualShoe: { seed: 7 } }, WHERE).virtualShoe,
    ).toEqual({
      seed: 7,
      decks: 8,
      intervalMs: 0,
      misreadRate: 0.03,
      noiseRate: 0,
      duplicateRate: 0,
      heartbeatIntervalMs: 1000,
    });
  });

  it('normalises aliases to card codes', () => {
    expect(
      parseScannerSettings({ wireFormat: 'line', path: '/dev/x', aliases: { '10s': 'ts' } }, WHERE)
        .aliases,
    ).toEqual({
      '10s': 'TS',
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'unknown format',
      { wireFormat: 'vendor-x' },
      '"scanner.wireFormat" must be one of studio-framed-v1, line (got "vendor-x")',
    ],
    ['bad baud rate', { wireFormat: 'line', baudRate: 9601 }, '"scanner.baudRate" must be one of'],
    [
      'bad parity',
      { wireFormat: 'line', parity: 'sometimes' },
      '"scanner.parity" must be one of none, even, odd, mark, space',
    ],
    [
      'bad stop bits',
      { wireFormat: 'line', stopBits: 3 },
      '"scanner.stopBits" must be one of 1, 1.5, 2 (got 3)',
    ],
    [
      'alias to a non-card',
      { wireFormat: 'line', aliases: { X: 'ZZ' } },
      '"scanner.aliases.X" must map to a card code',
    ],
    ['unknown key', { wireFormat: 'line', baud: 9600 }, '"scanner.baud" is not a scanner setting'],
    [
      'empty path',
      { wireFormat: 'line', path: ' ' },
      '"scanner.path" must be a serial device path',
    ],
    [
      'virtual shoe with a path',
      { wireFormat: 'line', path: '/dev/x', virtualShoe: {} },
      '"scanner.virtualShoe" only applies',
    ],
    [
      'misread rate of 1',
      { wireFormat: 'line', virtualShoe: { misreadRate: 1 } },
      '"scanner.virtualShoe.misreadRate" must be a share',
    ],
  ])(
    'rejects %s with a one-line message naming file, table and field',
    (_name, scanner, message) => {
      expect(() => parseScannerSettings(scanner, WHERE)).toThrow(`${WHERE}: ${message}`);
    },
  );

  it('refuses a scanner on the practice table, which has no card reader', () => {
    expect(() =>
      parseTableDefinitions(
        [
          {
            id: 'practice-1',
            name: 'P',
            game: 'european-blackjack-practice',
            currency: 'XPT',
            scanner: { wireFormat: 'line' },
          },
        ],
        'TABLES_FILE "t.json"',
      ),
    ).toThrow('TABLES_FILE "t.json" table #1 ("practice-1"): "scanner" is not allowed');
  });

  it('accepts the shipped config/tables.json: scanners for the card tables, none for practice', () => {
    const { loadTableDefinitions } =
      jest.requireActual<typeof import('../config/tables-config')>('../config/tables-config');
    const tables = loadTableDefinitions(`${__dirname}/../../config/tables.json`);
    expect(Object.fromEntries(tables.map((t) => [t.id, t.scanner?.wireFormat ?? null]))).toEqual({
      'ibj-1': 'studio-framed-v1',
      'lux-1': 'studio-framed-v1',
      'practice-1': null,
      'pokdeng-1': 'line',
    });
  });
});
