import type { GameKind } from '@studio/contracts';
import { DEFAULT_INGESTION_RULES } from '@studio/scanner-protocol';
import { ConfigError } from '../common/config-error';
import type { TableSettings } from '../table-core/table-machine';
import { tableCurrencies } from './currency-limits';

export interface TableRunSettings extends TableSettings {
  decisionWindowMs: number;
  /** Game-specific rule overrides, passed to the game's adapter. */
  rules: Record<string, unknown>;
}

type Raw = Record<string, unknown>;

/**
 * The orchestration settings of one configured table, with games.md defaults: betting window 15 s,
 * decision window 10 s, rescans escalate after 5 failed attempts or 20 s, debounce 300 ms.
 */
export function tableRunSettings(
  table: Raw & { id: string; game: GameKind; currency?: string },
  where = `table "${table.id}"`,
): TableRunSettings {
  const int = (
    key: string,
    fallback: number,
    min: number,
    max: number,
    source: Raw = table,
    path = key,
  ): number => {
    const value = source[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(
        `${where}: "${path}" must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`,
      );
    }
    return value;
  };
  const rescan = (table.rescan ?? {}) as Raw;
  if (typeof rescan !== 'object' || Array.isArray(rescan)) {
    throw new ConfigError(`${where}: "rescan" must be an object`);
  }
  const money = tableCurrencies(table, where);
  const rules = table.rules ?? {};
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new ConfigError(`${where}: "rules" must be an object`);
  }
  return {
    tableId: table.id,
    game: table.game,
    currency: money.currency,
    currencies: money.currencies,
    limits: money.limitsByCurrency[money.currency],
    limitsByCurrency: money.limitsByCurrency,
    bettingWindowMs: int('bettingWindowMs', 15_000, 1_000, 600_000),
    decisionWindowMs: int('decisionWindowMs', 10_000, 1_000, 600_000),
    roundIntervalMs: int('roundIntervalMs', 5_000, 0, 600_000),
    ingestion: {
      maxFailedAttempts: int(
        'maxFailedAttempts',
        DEFAULT_INGESTION_RULES.maxFailedAttempts,
        1,
        100,
        rescan,
        'rescan.maxFailedAttempts',
      ),
      escalateAfterMs: int(
        'escalateAfterMs',
        DEFAULT_INGESTION_RULES.escalateAfterMs,
        1_000,
        600_000,
        rescan,
        'rescan.escalateAfterMs',
      ),
      debounceMs: int(
        'debounceMs',
        DEFAULT_INGESTION_RULES.debounceMs,
        0,
        10_000,
        rescan,
        'rescan.debounceMs',
      ),
    },
    rules: rules as Record<string, unknown>,
  };
}
