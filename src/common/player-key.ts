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

/**
 * The practice tables' bots are keyed `bot:<seat>`: a key's "platform" that names no platform
 * (reserved: no platform may take the id; their events go to no platform's topic).
 */
export const BOTS = 'bot';

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

/**
 * A command id is a platform's own idempotency key, unique only within that platform (two
 * operators may both number their commands 1, 2, 3…). Stored, looked up and compared in the same
 * form as a player key, so that a repeat finds only its own platform's first answer and another
 * platform's id is never refused as reused: a `default` platform's bare id (stored as before),
 * `<platformId>:<commandId>` for the others.
 */
export function commandKey(platformId: string, commandId: string): string {
  return playerKey(platformId, commandId);
}

/** A command's stored key, or none when the command carries no id. */
export function commandKeyOf(
  platformId: string,
  commandId: string | undefined,
): string | undefined {
  return commandId ? commandKey(platformId, commandId) : undefined;
}

/** The command id as its platform sent it (what every answer and message to it names). */
export function commandIdOfKey(key: string): string {
  return playerOfKey(key).playerId;
}

/** A platform id as the registry accepts it. */
export const PLATFORM_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * The longest platform API key: a registry key is 47 characters (`psk_` + 43), a
 * `PLATFORM_API_KEYS` one is refused at start-up past this. A longer header names no key: it is
 * refused before it is hashed, looked up or cached (16 KiB of random keys held ~250 MB).
 */
export const MAX_PLATFORM_API_KEY_LENGTH = 256;
