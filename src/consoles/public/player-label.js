// A player on a console page: the platform's own playerId, then a small label naming its platform
// (the same playerId at two platforms is two players, so the label is never left out).
import { el } from './console.js';
import { BOT_PLATFORM, playerName } from './players.js';

/**
 * @param {{platformId: string, playerId: string}} player
 * @returns {HTMLElement}
 */
export function playerLabel(player) {
  return el('span', { className: 'player', 'data-platform': player.platformId }, [
    el('span', { className: 'player-id' }, playerName(player)),
    player.platformId === BOT_PLATFORM ? null : ' ',
    platformLabel(player),
  ]);
}

/**
 * The platform's label alone (where the player is already named), null for a practice bot.
 * @param {{platformId: string}} player
 * @returns {HTMLElement | null}
 */
export function platformLabel({ platformId }) {
  if (platformId === BOT_PLATFORM) return null;
  return el('span', { className: 'platform', title: `Platform ${platformId}` }, platformId);
}
