import fc from 'fast-check';
import { playerKey as serviceKey, playerOfKey } from '../common/player-key';
import { playerKey, playerName, playerText } from './public/players.js';

describe('players on the consoles', () => {
  it('names a player by the platform’s own playerId, its platform apart', () => {
    const alice = { platformId: 'casino-a', playerId: 'alice' };
    expect(playerName(alice)).toBe('alice');
    expect(playerText(alice)).toBe('alice (casino-a)');
    expect(playerText({ platformId: 'default', playerId: 'bob' })).toBe('bob (default)');
  });

  it('names the practice table’s bots as bots, with no platform', () => {
    const bot = playerOfKey('bot:3');
    expect(playerName(bot)).toBe('bot 3');
    expect(playerText(bot)).toBe('bot 3');
  });

  it('builds the auditor search’s player key exactly as the service keys players', () => {
    const platform = fc.oneof(
      fc.constant('default'),
      fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/),
    );
    fc.assert(
      fc.property(platform, fc.string({ minLength: 1 }), (platformId, playerId) => {
        expect(playerKey(platformId, playerId)).toBe(serviceKey(platformId, playerId));
      }),
    );
    expect(playerKey('default', 'alice')).toBe('alice');
    expect(playerKey('casino-a', 'alice')).toBe('casino-a:alice');
  });
});
