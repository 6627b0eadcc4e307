// Players as the consoles name them. A studio serves several casino platforms and a player is
// (platform, playerId): `alice` of casino-a and `alice` of casino-b are two players. The service
// sends each as `player: {platformId, playerId}`; the consoles show the platform's own playerId
// with its platform beside it, never the two glued into one key. Pure (unit-tested).

/** The practice table's bots are keyed `bot:<seat>`: a reserved id that names no platform. */
export const BOT_PLATFORM = 'bot';

/** The platform of single-platform studios, whose players' keys are their bare ids. */
export const DEFAULT_PLATFORM = 'default';

/**
 * Who a player is without the platform: "alice", or "bot 3" for the practice table's bot on seat 3.
 * @param {{platformId: string, playerId: string}} player
 * @returns {string}
 */
export function playerName({ platformId, playerId }) {
  return platformId === BOT_PLATFORM ? `bot ${playerId}` : playerId;
}

/**
 * The player and its platform in one text, where no label fits (a title on hover):
 * "alice (casino-a)"; a bot has no platform to name.
 * @param {{platformId: string, playerId: string}} player
 * @returns {string}
 */
export function playerText(player) {
  const name = playerName(player);
  return player.platformId === BOT_PLATFORM ? name : `${name} (${player.platformId})`;
}

/**
 * The key the auditor API's `playerId` filter takes for a player (src/common/player-key.ts): a
 * `default` player's bare id, unless it holds ":" (then `default:<id>`); `<platform>:<id>` else.
 * @param {string} platformId
 * @param {string} playerId
 * @returns {string}
 */
export function playerKey(platformId, playerId) {
  if (platformId === DEFAULT_PLATFORM && !playerId.includes(':')) return playerId;
  return `${platformId}:${playerId}`;
}
