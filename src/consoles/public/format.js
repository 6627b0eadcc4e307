// Money and time as the consoles show them. Pure functions: no DOM, no clock (unit-tested).

/** Currencies whose minor unit is not 1/100 (ISO 4217 exponent); every other code has 2. */
const EXPONENTS = {
  BHD: 3,
  JOD: 3,
  KWD: 3,
  OMR: 3,
  TND: 3,
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
};

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * Integer minor units in US format with the currency code: 123400 EUR -> "1,234.00 EUR",
 * -5 USD -> "-0.05 USD". Whole and fractional parts are split with integer arithmetic, so no
 * amount a table can hold is ever rounded.
 * @param {number} minorUnits
 * @param {string} currency ISO 4217 code (XPT: the practice table's points)
 * @returns {string}
 */
export function formatAmount(minorUnits, currency) {
  if (!Number.isSafeInteger(minorUnits)) {
    throw new TypeError(`Amounts are whole minor units; got ${String(minorUnits)}`);
  }
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    throw new TypeError(`A currency is a three-letter ISO 4217 code; got ${String(currency)}`);
  }
  const exponent = EXPONENTS[currency] ?? 2;
  const scale = 10 ** exponent;
  const magnitude = Math.abs(minorUnits);
  const whole = GROUPED.format(Math.floor(magnitude / scale));
  const fraction = exponent > 0 ? `.${String(magnitude % scale).padStart(exponent, '0')}` : '';
  return `${minorUnits < 0 ? '-' : ''}${whole}${fraction} ${currency}`;
}

/**
 * The same number as Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }) would print for
 * minor / 100 (the check the unit test makes), without the currency.
 * @param {number} minorUnits
 * @returns {string}
 */
export function formatMinor(minorUnits) {
  return formatAmount(minorUnits, 'USD').slice(0, -4);
}

/**
 * A UTC time for a console: "2026-11-29 15:04:05 UTC".
 * @param {string | null | undefined} iso
 * @returns {string}
 */
export function formatUtc(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Whole seconds left until `dueAt` on the service's clock (never negative).
 * @param {string} dueAt ISO time
 * @param {number} serverNow epoch milliseconds on the service's clock
 * @returns {number}
 */
export function secondsLeft(dueAt, serverNow) {
  return Math.max(0, Math.ceil((new Date(dueAt).getTime() - serverNow) / 1000));
}

const LOCAL = (timeZone) =>
  new Intl.DateTimeFormat('sv-SE', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  });

/**
 * A time in the screen's time zone: "2026-11-29 16:04:05" (the UTC time goes in a title).
 * @param {string | null | undefined} iso
 * @param {string} [timeZone] for tests; the browser's own zone by default
 * @returns {string}
 */
export function formatLocal(iso, timeZone) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return LOCAL(timeZone).format(d);
}

/**
 * The clock time only, in the screen's zone ("16:04:05"): for tiles where the date is today's.
 * @param {string | null | undefined} iso
 * @param {string} [timeZone]
 * @returns {string}
 */
export function formatLocalTime(iso, timeZone) {
  const text = formatLocal(iso, timeZone);
  return text.length > 10 ? text.slice(11) : text;
}

/**
 * What a stake is made of, in words: "bet 50.00 THB + deposit 50.00 THB = stake 100.00 THB" (a
 * Pok Deng Player bet deducts its amount twice), "bet 10.00 EUR + 10.00 EUR added by a double or
 * split = stake 20.00 EUR", or just "bet 5.00 EUR" when the stake is the bet.
 * @param {number} stake
 * @param {{bet: number, deposit: number, added: number} | null} parts
 * @param {string} currency
 * @returns {string}
 */
export function stakeText(stake, parts, currency) {
  if (!parts) return `stake ${formatAmount(stake, currency)}`;
  const extra = [
    parts.deposit ? `deposit ${formatAmount(parts.deposit, currency)}` : null,
    parts.added ? `${formatAmount(parts.added, currency)} added by a double or split` : null,
  ].filter(Boolean);
  const bet = `bet ${formatAmount(parts.bet, currency)}`;
  return extra.length
    ? `${bet} + ${extra.join(' + ')} = stake ${formatAmount(stake, currency)}`
    : bet;
}
