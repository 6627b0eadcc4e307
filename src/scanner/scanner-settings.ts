import { CardCode, cardCode, parseCardCode } from '@studio/cards';
import { WIRE_FORMAT_NAMES, wireFormat } from '@studio/scanner-protocol';
import { ConfigError } from '../common/config-error';
import { isTcpPath, parseTcpAddress } from './tcp-port';

export const PARITIES = ['none', 'even', 'odd', 'mark', 'space'] as const;
export type Parity = (typeof PARITIES)[number];

/** The built-in virtual shoe that feeds a table when no device path is configured (demo). */
export interface VirtualShoeSettings {
  seed: number;
  decks: number;
  /**
   * 0 (default): cards are dealt on demand, when the table's virtual dealer asks for one. More: the
   * shoe deals a card every intervalMs by itself (feeds the scanner path with no rounds running).
   */
  intervalMs: number;
  /** Share of cards the virtual reader fails to read at first (the dealer rescans them). */
  misreadRate: number;
  noiseRate: number;
  duplicateRate: number;
  /** How often the virtual reader sends a heartbeat (formats that have them). */
  heartbeatIntervalMs: number;
  /**
   * Set: the service hosts the shoe as a serial device server in raw TCP mode on this port (0: any
   * free port) and reads it over TCP like a networked shoe, so instances elsewhere can read the
   * same shoe at tcp://host:port. Absent: a socat pty pair.
   */
  tcpPort?: number;
  /** Interface the shoe's TCP server listens on (default 127.0.0.1; 0.0.0.0 for other hosts). */
  tcpHost?: string;
}

/** Per-table card-shoe reader settings (config/tables.json, "scanner"). */
export interface ScannerSettings {
  wireFormat: string;
  /**
   * Serial device (/dev/ttyUSB0), or tcp://host:port for a serial device server in raw TCP mode
   * (the serial line settings below then live on the device server). Absent: the service runs a
   * virtual shoe.
   */
  path?: string;
  baudRate: number;
  dataBits: 5 | 6 | 7 | 8;
  parity: Parity;
  stopBits: 1 | 1.5 | 2;
  /** Silence longer than this marks the reader stale; null: never (readers without heartbeats). */
  heartbeatTimeoutMs: number | null;
  reconnectInitialDelayMs: number;
  reconnectMaxDelayMs: number;
  maxFrameBytes: number;
  lineEnding: 'lf' | 'cr';
  aliases: Record<string, CardCode>;
  /** The shoe's decks: the game's (its "rules"), which the virtual shoe deals. */
  decks: number;
  virtualShoe?: VirtualShoeSettings;
}

/**
 * The rescan rules belong to the table ("rescan"), where the table reads them. Written here, as
 * an earlier example in docs/scanner-protocol.md showed, they were checked and then ignored.
 */
const RESCAN_SETTINGS = ['maxFailedAttempts', 'escalateAfterMs', 'debounceMs'];

const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400];

type Fail = (field: string, must: string, got: unknown) => never;

/** Readers that send heartbeats are stale after 5 s of silence unless told otherwise; null/0 = never. */
function parseHeartbeatTimeout(
  value: unknown,
  hasHeartbeats: boolean,
  read: () => number,
): number | null {
  if (value === null || value === 0) return null;
  if (value === undefined) return hasHeartbeats ? 5000 : null;
  return read();
}

/** What the reader sends for a card, mapped to its card code (e.g. {"10S": "TS"}). */
function parseAliases(value: unknown, fail: Fail): Record<string, CardCode> {
  const aliases: Record<string, CardCode> = {};
  if (value === undefined) return aliases;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(
      'aliases',
      'must be an object mapping what the reader sends to a card code, e.g. {"10S": "TS"}',
      value,
    );
  }
  for (const [alias, target] of Object.entries(value as Record<string, unknown>)) {
    const card = typeof target === 'string' ? parseCardCode(target) : undefined;
    if (!card || alias.trim() === '')
      fail(`aliases.${alias}`, 'must map to a card code such as "TS"', target);
    aliases[alias] = cardCode(card!);
  }
  return aliases;
}

/**
 * Validates a table's "scanner" object and fills in the defaults. Every problem is one line that
 * names the file, the table and the field.
 */
export function parseScannerSettings(
  value: unknown,
  where: string,
  /** The decks of the table's game (its shoe rules); absent: 8, and any number is taken. */
  gameDecks?: number,
): ScannerSettings {
  const fail = (field: string, must: string, got: unknown): never => {
    throw new ConfigError(`${where}: "scanner.${field}" ${must} (got ${JSON.stringify(got)})`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('', 'must be an object', value);
  }
  const s = value as Record<string, unknown>;
  const known = new Set([
    'wireFormat',
    'path',
    'baudRate',
    'dataBits',
    'parity',
    'stopBits',
    'heartbeatTimeoutMs',
    'reconnectInitialDelayMs',
    'reconnectMaxDelayMs',
    'maxFrameBytes',
    'lineEnding',
    'aliases',
    'decks',
    'virtualShoe',
  ]);
  for (const key of Object.keys(s)) {
    if (RESCAN_SETTINGS.includes(key))
      fail(key, `is a rescan rule of the table: set "rescan.${key}" beside "scanner"`, s[key]);
    if (!known.has(key))
      fail(key, `is not a scanner setting; use one of ${[...known].join(', ')}`, s[key]);
  }
  const int = (field: string, fallback: number, min: number, max: number, from = s): number => {
    const v = from[field] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      fail(field, `must be a whole number from ${min} to ${max}`, v);
    }
    return v as number;
  };
  const oneOf = <T>(field: string, allowed: readonly T[], fallback: T): T => {
    const v = s[field] ?? fallback;
    if (!allowed.includes(v as T)) fail(field, `must be one of ${allowed.join(', ')}`, v);
    return v as T;
  };

  const format = s.wireFormat;
  if (typeof format !== 'string' || !wireFormat(format)) {
    fail('wireFormat', `must be one of ${WIRE_FORMAT_NAMES.join(', ')}`, format);
  }
  const definition = wireFormat(format as string)!;
  if (s.path !== undefined && (typeof s.path !== 'string' || s.path.trim() === '')) {
    fail(
      'path',
      'must be a serial device path such as /dev/ttyUSB0, or tcp://host:port (or be left out for the virtual shoe)',
      s.path,
    );
  }
  if (typeof s.path === 'string') checkDevicePath(s.path, fail);
  const baudRate = s.baudRate ?? 9600;
  if (!BAUD_RATES.includes(baudRate as number))
    fail('baudRate', `must be one of ${BAUD_RATES.join(', ')}`, baudRate);

  const heartbeatTimeoutMs = parseHeartbeatTimeout(
    s.heartbeatTimeoutMs,
    definition.hasHeartbeats,
    () => int('heartbeatTimeoutMs', 5000, 100, 600_000),
  );
  // A reader without heartbeats is silent between cards: with a timeout it went `stale` (readiness
  // 503, StudioScannerDisconnected) whenever the dealer paused, as the example in
  // docs/operations.md, a line reader with "heartbeatTimeoutMs": 5000, did.
  if (heartbeatTimeoutMs !== null && !definition.hasHeartbeats) {
    fail(
      'heartbeatTimeoutMs',
      `applies only to readers that send heartbeats; a ${definition.name} reader is silent while no card is dealt and would be "stale" between cards: leave it out (or null)`,
      s.heartbeatTimeoutMs,
    );
  }

  const aliases = parseAliases(s.aliases, fail);

  const reconnectInitialDelayMs = int('reconnectInitialDelayMs', 200, 10, 60_000);
  const reconnectMaxDelayMs = int('reconnectMaxDelayMs', 5_000, reconnectInitialDelayMs, 600_000);
  const settings: ScannerSettings = {
    wireFormat: definition.name,
    baudRate: baudRate as number,
    dataBits: oneOf('dataBits', [5, 6, 7, 8] as const, 8),
    parity: oneOf('parity', PARITIES, 'none'),
    stopBits: oneOf('stopBits', [1, 1.5, 2] as const, 1),
    heartbeatTimeoutMs,
    reconnectInitialDelayMs,
    reconnectMaxDelayMs,
    maxFrameBytes: int('maxFrameBytes', 64, 16, 4096),
    lineEnding: oneOf('lineEnding', ['lf', 'cr'] as const, 'lf'),
    aliases,
    decks: shoeDecks(int('decks', gameDecks ?? 8, 1, 16), 'decks', gameDecks, fail),
  };
  if (typeof s.path === 'string') {
    settings.path = s.path;
    if (s.virtualShoe !== undefined)
      fail('virtualShoe', 'only applies when no "path" is set', s.virtualShoe);
  } else {
    settings.virtualShoe = parseVirtualShoe(s.virtualShoe ?? {}, settings.decks, fail);
    shoeDecks(settings.virtualShoe.decks, 'virtualShoe.decks', gameDecks, fail);
  }
  return settings;
}

/**
 * A shoe of another size than the game's: the table counts each card against the game's decks,
 * so a virtual shoe of more decks dealt a 9th copy of a card into an 8-deck game, refused with a
 * supervisor alert round after round, and a reader's "decks" was never read at all.
 */
function shoeDecks(decks: number, field: string, gameDecks: number | undefined, fail: Fail) {
  if (gameDecks !== undefined && decks !== gameDecks) {
    fail(
      field,
      `must be the game's ${gameDecks} decks, or be left out (the table's "rules" set the shoe's size)`,
      decks,
    );
  }
  return decks;
}

/** tcp://host:port must parse; any other scheme (rfc2217://, telnet://) is not supported. */
function checkDevicePath(
  path: string,
  fail: (field: string, must: string, got: unknown) => never,
): void {
  if (isTcpPath(path)) {
    try {
      parseTcpAddress(path);
    } catch (error) {
      fail('path', (error as Error).message, path);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    fail(
      'path',
      'must be a serial device path or tcp://host:port (raw TCP); no other scheme is supported',
      path,
    );
  }
}

const VIRTUAL_SHOE_SETTINGS = [
  'seed',
  'decks',
  'intervalMs',
  'misreadRate',
  'noiseRate',
  'duplicateRate',
  'heartbeatIntervalMs',
  'tcpPort',
  'tcpHost',
];

function parseVirtualShoe(
  value: unknown,
  decks: number,
  fail: (field: string, must: string, got: unknown) => never,
): VirtualShoeSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('virtualShoe', 'must be an object', value);
  }
  const v = value as Record<string, unknown>;
  // As in "scanner": a misspelt knob ("misreadrate", "interval") was kept unread, the shoe
  // dealing on its defaults.
  for (const key of Object.keys(v)) {
    if (!VIRTUAL_SHOE_SETTINGS.includes(key)) {
      fail(
        `virtualShoe.${key}`,
        `is not a virtual shoe setting; use one of ${VIRTUAL_SHOE_SETTINGS.join(', ')}`,
        v[key],
      );
    }
  }
  const int = (field: string, fallback: number, min: number, max: number): number => {
    const x = v[field] ?? fallback;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
      fail(`virtualShoe.${field}`, `must be a whole number from ${min} to ${max}`, x);
    }
    return x as number;
  };
  const rate = (field: string, fallback: number): number => {
    const x = v[field] ?? fallback;
    if (typeof x !== 'number' || !(x >= 0 && x < 1))
      fail(`virtualShoe.${field}`, 'must be a share from 0 to below 1', x);
    return x as number;
  };
  const shoe: VirtualShoeSettings = {
    seed: int('seed', 1, 0, 2 ** 32 - 1),
    decks: int('decks', decks, 1, 16),
    intervalMs: int('intervalMs', 0, 0, 3_600_000),
    misreadRate: rate('misreadRate', 0.03),
    noiseRate: rate('noiseRate', 0),
    duplicateRate: rate('duplicateRate', 0),
    heartbeatIntervalMs: int('heartbeatIntervalMs', 1000, 10, 600_000),
  };
  if (v.tcpPort !== undefined) shoe.tcpPort = int('tcpPort', 0, 0, 65535);
  if (v.tcpHost !== undefined) {
    if (typeof v.tcpHost !== 'string' || !/^[^\s/]+$/.test(v.tcpHost))
      fail('virtualShoe.tcpHost', 'must be an interface address such as 0.0.0.0', v.tcpHost);
    if (v.tcpPort === undefined)
      fail('virtualShoe.tcpHost', 'only applies with "virtualShoe.tcpPort"', v.tcpHost);
    shoe.tcpHost = v.tcpHost as string;
  }
  return shoe;
}
