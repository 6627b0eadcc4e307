import type { GameKind } from '@studio/contracts';
import { DEFAULT_INGESTION_RULES } from '@studio/scanner-protocol';
import { ConfigError } from '../common/config-error';
import { defaultLimits } from '../games/game-registry';
import type { BetLimit, TableSettings } from '../table-core/table-machine';

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
  table: Raw & { id: string; game: GameKind; currency: string },
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
  const defaults = defaultLimits(table.game);
  const limits: Record<string, BetLimit> = { ...defaults };
  const rawLimits = table.limits;
  if (rawLimits !== undefined) {
    if (typeof rawLimits !== 'object' || rawLimits === null || Array.isArray(rawLimits)) {
      throw new ConfigError(
        `${where}: "limits" must be an object like {"main": {"min": 100, "max": 50000}}`,
      );
    }
    for (const [betType, limit] of Object.entries(rawLimits as Raw)) {
      if (!(betType in defaults)) {
        throw new ConfigError(
          `${where}: "limits.${betType}" is not a bet of ${table.game} (bets: ${Object.keys(defaults).join(', ')})`,
        );
      }
      const l = (limit ?? {}) as Raw;
      const min = int(
        'min',
        limits[betType].min,
        1,
        Number.MAX_SAFE_INTEGER,
        l,
        `limits.${betType}.min`,
      );
      const max = int(
        'max',
        limits[betType].max,
        1,
        Number.MAX_SAFE_INTEGER,
        l,
        `limits.${betType}.max`,
      );
      if (min > max)
        throw new ConfigError(`${where}: "limits.${betType}" has min ${min} above max ${max}`);
      limits[betType] = { min, max };
    }
  }
  const rules = table.rules ?? {};
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new ConfigError(`${where}: "rules" must be an object`);
  }
  return {
    tableId: table.id,
    game: table.game,
    currency: table.currency,
    bettingWindowMs: int('bettingWindowMs', 15_000, 1_000, 600_000),
    decisionWindowMs: int('decisionWindowMs', 10_000, 1_000, 600_000),
    roundIntervalMs: int('roundIntervalMs', 5_000, 0, 600_000),
    limits,
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
