/**
 * A player is (platform, playerId): the same playerId at two platforms is two players. Inside the
 * table core and the game engines, which key players by one string, a player is this one string:
 * - a `default` platform player is its bare playerId, unless it contains ":" (then
 *   `default:<playerId>`), so single-platform tables, their history and their events are unchanged;
 * - any other platform's player is `<platformId>:<playerId>`.
 * Platform ids never contain ":" (`^[a-z0-9][a-z0-9-]{0,39}$`), so the first ":" splits a key
 * back unambiguously, and no playerId of one platform can spell a player of another.
 */
export interface PlayerRef {
  platformId: string;
  playerId: string;
}

export const DEFAULT_PLATFORM = 'default';

export function playerKey(platformId: string, playerId: string): string {
  if (platformId === DEFAULT_PLATFORM && !playerId.includes(':')) return playerId;
  return `${platformId}:${playerId}`;
}

export function playerOfKey(key: string): PlayerRef {
  const at = key.indexOf(':');
  if (at < 0) return { platformId: DEFAULT_PLATFORM, playerId: key };
  return { platformId: key.slice(0, at), playerId: key.slice(at + 1) };
}

/** The key's platform (cheaper than splitting when only the platform is asked). */
export function platformOfKey(key: string): string {
  const at = key.indexOf(':');
  return at < 0 ? DEFAULT_PLATFORM : key.slice(0, at);
}

/** A platform id as the registry accepts it. */
export const PLATFORM_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
