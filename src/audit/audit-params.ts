import { AuditRequestError } from './audit-query';

/** Longest text parameter accepted (table ids, games, player ids, ...). */
export const MAX_TEXT_LENGTH = 200;
/** The years a stored time can be in: before the studio existed or past 9999 is a mistake. */
export const MIN_YEAR = 1970;
export const MAX_YEAR = 9999;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * A text parameter as the database can store and compare it: one value (not a repeated or nested
 * query key), no NUL (PostgreSQL refuses it), no lone surrogate (not UTF-8), at most 200
 * characters. Empty means absent.
 */
export function textParam(name: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new AuditRequestError('invalid-text', `${name} must be given once, as text`);
  }
  if (value.includes('\u0000')) {
    throw new AuditRequestError('invalid-text', `${name} must not contain a NUL character`);
  }
  if (LONE_SURROGATE.test(value)) {
    throw new AuditRequestError('invalid-text', `${name} must be valid Unicode (a lone surrogate)`);
  }
  if (value.length > MAX_TEXT_LENGTH) {
    throw new AuditRequestError(
      'invalid-text',
      `${name} must be at most ${MAX_TEXT_LENGTH} characters`,
    );
  }
  return value;
}

/**
 * Refuses a query parameter the endpoint does not read: a misspelt filter (`player=` for
 * `playerId=`) would otherwise be ignored and the answer would hold every round, which an auditor
 * could take for the filtered one.
 */
export function onlyKnownParams(query: object | undefined, known: readonly string[]): void {
  const unknown = Object.keys(query ?? {}).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const names = unknown.map((name) => `"${name.slice(0, 40)}"`).join(', ');
  throw new AuditRequestError(
    'unknown-parameter',
    `unknown query parameter ${names}: this endpoint reads ${known.join(', ') || 'none'}`,
  );
}

/** Every query parameter checked as text (so a repeated or NUL-bearing key never reaches SQL). */
export function textParams<K extends string>(
  query: Partial<Record<K, unknown>> | undefined,
  names: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = textParam(name, query?.[name]);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * An ISO 8601 time (`2026-11-29`, `2026-11-29T12:00:00Z`, `2026-11-29T12:00:00.123+01:00`) of a
 * real calendar day in years 1970..9999. Empty means absent.
 */
export function timeParam(name: string, value: unknown): Date | undefined {
  const text = textParam(name, value);
  if (text === undefined) return undefined;
  const bad = (why: string) =>
    new AuditRequestError('invalid-time', `${name} must be an ISO 8601 time${why} (got "${text}")`);
  const m = ISO_TIME.exec(text);
  if (!m) throw bad('');
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const calendar = new Date(Date.UTC(2000, month - 1, day));
  const realDay =
    month >= 1 &&
    month <= 12 &&
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day &&
    !(month === 2 && day === 29 && !isLeap(year));
  if (!realDay || hour > 23 || minute > 59 || second > 59) throw bad(' of a real date');
  if (year < MIN_YEAR || year > MAX_YEAR) throw bad(` in years ${MIN_YEAR} to ${MAX_YEAR}`);
  const fraction = (m[7] ?? '').slice(0, 4);
  const zone = zoneOf(m[8]);
  const t = Date.parse(
    `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${fraction}${zone}`,
  );
  if (Number.isNaN(t)) throw bad(' with a valid offset');
  return new Date(t);
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** No offset means UTC (the service's times are UTC); `+01` and `+0100` become `+01:00`. */
function zoneOf(zone: string | undefined): string {
  if (zone === undefined || zone === 'Z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
}

/** Both ends of a time range, from before to. */
export function timeRange(query: { from?: unknown; to?: unknown }): { from?: Date; to?: Date } {
  const from = timeParam('from', query.from);
  const to = timeParam('to', query.to);
  if (from && to && from >= to)
    throw new AuditRequestError('bad-request', 'from must be before to');
  return { from, to };
}

/** Most days one replay call verifies, and most rounds (see docs/auditor-api.md). */
export const MAX_REPLAY_DAYS = 7;
export const MAX_REPLAY_ROUNDS = 2_000;

/** A replay range: both ends required, at most MAX_REPLAY_DAYS long. */
export function replayRange(query: { from?: unknown; to?: unknown }): { from: Date; to: Date } {
  const { from, to } = timeRange(query);
  if (!from || !to) throw new AuditRequestError('bad-request', 'from and to are required');
  if (to.getTime() - from.getTime() > MAX_REPLAY_DAYS * 86_400_000) {
    throw new AuditRequestError(
      'range-too-large',
      `a replay covers at most ${MAX_REPLAY_DAYS} days per call; split the range`,
    );
  }
  return { from, to };
}
