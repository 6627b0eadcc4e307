import type { GameKind } from '@studio/contracts';
import { ConfigError } from '../common/config-error';
import { defaultLimits } from '../games/game-registry';
import type { BetLimit } from '../table-core/table-machine';
import { isIsoCurrency } from '../common/currency-codes';

type Raw = Record<string, unknown>;

const CURRENCY = /^[A-Z]{3}$/;
const LIMITS_EXAMPLE = '{"main": {"min": 100, "max": 50000}}';

/** A table's currencies (its default first) and each one's limits by bet type, in minor units. */
export interface TableCurrencies {
  /** The default: a bet that names no currency is in it when its platform uses it. */
  currency: string;
  currencies: string[];
  limitsByCurrency: Record<string, Record<string, BetLimit>>;
}

/**
 * The currencies of a configured table, in one of two forms: the single `currency` with its
 * `limits` (every table before several currencies), or `currencies`, an object of currency code →
 * limits (`{"EUR": {"main": {...}}, "THB": {...}}`), the first one the default (or `currency`, if
 * given, which must be one of them). Each currency's limits default to the game's.
 */
export function tableCurrencies(table: Raw & { game: GameKind }, where: string): TableCurrencies {
  if (table.currencies === undefined) {
    const currency = checkCode(table.currency, where, 'currency');
    return {
      currency,
      currencies: [currency],
      limitsByCurrency: { [currency]: parseLimits(table.limits, table.game, where, 'limits') },
    };
  }
  const raw = table.currencies;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !Object.keys(raw).length) {
    throw new ConfigError(
      `${where}: "currencies" must be an object of currency → limits, like {"EUR": ${LIMITS_EXAMPLE}}`,
    );
  }
  if (table.limits !== undefined) {
    throw new ConfigError(
      `${where}: "limits" and "currencies" cannot both be given: put the limits under each currency`,
    );
  }
  const limitsByCurrency: Record<string, Record<string, BetLimit>> = {};
  for (const [code, limits] of Object.entries(raw as Raw)) {
    checkCode(code, where, `currencies.${code}`);
    limitsByCurrency[code] = parseLimits(limits ?? {}, table.game, where, `currencies.${code}`);
  }
  const codes = Object.keys(limitsByCurrency);
  const currency =
    table.currency === undefined ? codes[0] : checkCode(table.currency, where, 'currency');
  if (!codes.includes(currency)) {
    throw new ConfigError(
      `${where}: "currency" ${currency} (the default) is not one of "currencies" (${codes.join(', ')})`,
    );
  }
  return {
    currency,
    currencies: [currency, ...codes.filter((c) => c !== currency)],
    limitsByCurrency,
  };
}

function checkCode(value: unknown, where: string, path: string): string {
  if (typeof value !== 'string' || !CURRENCY.test(value)) {
    throw new ConfigError(
      `${where}: "${path}" must be a three-letter ISO 4217 code (got ${JSON.stringify(value)})`,
    );
  }
  if (!isIsoCurrency(value)) {
    throw new ConfigError(`${where}: "${path}" ${value} is not an ISO 4217 currency code`);
  }
  return value;
}

/** One currency's limits: the game's defaults, overridden per bet type. */
function parseLimits(
  raw: unknown,
  game: GameKind,
  where: string,
  path: string,
): Record<string, BetLimit> {
  const defaults = defaultLimits(game);
  const limits: Record<string, BetLimit> = { ...defaults };
  if (raw === undefined) return limits;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${where}: "${path}" must be an object like ${LIMITS_EXAMPLE}`);
  }
  for (const [betType, limit] of Object.entries(raw as Raw)) {
    if (!Object.hasOwn(defaults, betType)) {
      throw new ConfigError(
        `${where}: "${path}.${betType}" is not a bet of ${game} (bets: ${Object.keys(defaults).join(', ')})`,
      );
    }
    const l = (limit ?? {}) as Raw;
    const min = whole(l.min, limits[betType].min, where, `${path}.${betType}.min`);
    const max = whole(l.max, limits[betType].max, where, `${path}.${betType}.max`);
    if (min > max) {
      throw new ConfigError(`${where}: "${path}.${betType}" has min ${min} above max ${max}`);
    }
    limits[betType] = { min, max };
  }
  return limits;
}

function whole(value: unknown, fallback: number, where: string, path: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(
      `${where}: "${path}" must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER} (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}
