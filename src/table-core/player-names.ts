import { playerOfKey } from '../common/player-key';

/**
 * An event's payload as platforms read it: each player the engines name by its key
 * (`casino-a:alice`, src/common/player-key.ts) is named `playerId: "alice", platformId:
 * "casino-a"` again, so the relay can route the event to that platform alone and no platform
 * sees another's key format. A `default` player's bare key is left as it is (v1 events unchanged).
 * Returns the same object when nothing is renamed (most events name no player).
 */
export function withPlatformPlayers<T>(value: T, depth = 0): T {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed: unknown[] | undefined;
    value.forEach((item, i) => {
      const named = withPlatformPlayers(item, depth + 1);
      if (named !== item) (changed ??= [...value])[i] = named;
    });
    return (changed ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  let changed: Record<string, unknown> | undefined;
  // for…in, not Object.entries: a bets event names thousands of players, and an array per
  // object was most of this function's cost on the intake's thread.
  for (const field in record) {
    if (!Object.prototype.hasOwnProperty.call(record, field)) continue;
    const inner = record[field];
    if (field === 'playerId' && typeof inner === 'string' && inner.includes(':')) {
      const { platformId, playerId } = playerOfKey(inner);
      changed ??= { ...record };
      changed.playerId = playerId;
      changed.platformId = platformId;
    } else if (inner !== null && typeof inner === 'object') {
      const named = withPlatformPlayers(inner, depth + 1);
      if (named !== inner) (changed ??= { ...record })[field] = named;
    }
  }
  return (changed ?? record) as T;
}
