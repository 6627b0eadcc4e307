import { parseTableDefinitions } from '../config/tables-config';
import { parseScannerSettings } from './scanner-settings';

const WHERE = 'TABLES_FILE "t.json" table #1 ("ibj-1")';

describe('scanner settings (config/tables.json "scanner")', () => {
  it('fills in the defaults', () => {
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
    });
  });

  it('refuses a virtual shoe setting it does not know, which was kept unread', () => {
    expect(() =>
      parseScannerSettings(
        { wireFormat: 'line', virtualShoe: { seed: 7, misreadrate: 0.2 } },
        WHERE,
      ),
    ).toThrow(
      `${WHERE}: "scanner.virtualShoe.misreadrate" is not a virtual shoe setting; use one of seed, decks, intervalMs, misreadRate, noiseRate, duplicateRate, heartbeatIntervalMs, tcpPort, tcpHost (got 0.2)`,
    );
  });

  it('refuses a heartbeat timeout for a line reader, which would be stale whenever no card is dealt', () => {
    expect(() =>
      parseScannerSettings(
        { wireFormat: 'line', path: '/dev/ttyS0', heartbeatTimeoutMs: 5000 },
        WHERE,
      ),
    ).toThrow(
      `${WHERE}: "scanner.heartbeatTimeoutMs" applies only to readers that send heartbeats; a line reader is silent while no card is dealt and would be "stale" between cards: leave it out (or null) (got 5000)`,
    );
    expect(
      parseScannerSettings({ wireFormat: 'line', path: '/dev/ttyS0', heartbeatTimeoutMs: 0 }, WHERE)
        .heartbeatTimeoutMs,
    ).toBeNull();
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

  it('accepts a serial device server in raw TCP mode as the path, and a TCP-hosted virtual shoe', () => {
    expect(
      parseScannerSettings({ wireFormat: 'studio-framed-v1', path: 'tcp://10.0.4.21:4001' }, WHERE)
        .path,
    ).toBe('tcp://10.0.4.21:4001');
    expect(
      parseScannerSettings({ wireFormat: 'line', path: 'TCP://[fd00::7]:4001' }, WHERE).path,
    ).toBe('TCP://[fd00::7]:4001');
    const hosted = parseScannerSettings(
      { wireFormat: 'line', virtualShoe: { seed: 3, tcpPort: 0, tcpHost: '0.0.0.0' } },
      WHERE,
    );
    expect(hosted.path).toBeUndefined();
    expect(hosted.virtualShoe).toMatchObject({ seed: 3, tcpPort: 0, tcpHost: '0.0.0.0' });
    expect(
      parseScannerSettings({ wireFormat: 'line', virtualShoe: {} }, WHERE).virtualShoe,
    ).not.toHaveProperty('tcpPort');
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
      'TCP path without a port',
      { wireFormat: 'line', path: 'tcp://10.0.4.21' },
      '"scanner.path" must be tcp://host:port, e.g. tcp://10.0.4.21:4001 (got "tcp://10.0.4.21")',
    ],
    [
      'TCP port 0',
      { wireFormat: 'line', path: 'tcp://10.0.4.21:0' },
      '"scanner.path" needs a TCP port from 1 to 65535 (got "tcp://10.0.4.21:0")',
    ],
    [
      'TCP port 65536',
      { wireFormat: 'line', path: 'tcp://shoe-7:65536' },
      '"scanner.path" needs a TCP port from 1 to 65535 (got "tcp://shoe-7:65536")',
    ],
    [
      'TCP path with a trailing path',
      { wireFormat: 'line', path: 'tcp://shoe-7:4001/x' },
      '"scanner.path" must be tcp://host:port',
    ],
    [
      'RFC 2217 (no kept library speaks it)',
      { wireFormat: 'line', path: 'rfc2217://shoe-7:4001' },
      '"scanner.path" must be a serial device path or tcp://host:port (raw TCP); no other scheme is supported',
    ],
    [
      'virtual shoe TCP port out of range',
      { wireFormat: 'line', virtualShoe: { tcpPort: 70000 } },
      '"scanner.virtualShoe.tcpPort" must be a whole number from 0 to 65535 (got 70000)',
    ],
    [
      'virtual shoe TCP host without a port',
      { wireFormat: 'line', virtualShoe: { tcpHost: '0.0.0.0' } },
      '"scanner.virtualShoe.tcpHost" only applies with "virtualShoe.tcpPort"',
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
