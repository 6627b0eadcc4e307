import fc from 'fast-check';
import {
  commandIdOfKey,
  commandKey,
  commandKeyOf,
  playerKey,
  playerOfKey,
  platformOfKey,
} from './player-key';

describe('player keys', () => {
  it('keeps a default player bare and qualifies the others', () => {
    expect(playerKey('default', 'alice')).toBe('alice');
    expect(playerKey('casino-a', 'alice')).toBe('casino-a:alice');
    expect(playerKey('default', 'casino-a:alice')).toBe('default:casino-a:alice');
  });

  it('splits every key back into its platform and player, and no two players share a key', () => {
    const platform = fc.oneof(
      fc.constant('default'),
      fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/),
    );
    fc.assert(
      fc.property(
        platform,
        fc.string({ minLength: 1 }),
        platform,
        fc.string({ minLength: 1 }),
        (p1, id1, p2, id2) => {
          const k1 = playerKey(p1, id1);
          expect(playerOfKey(k1)).toEqual({ platformId: p1, playerId: id1 });
          expect(platformOfKey(k1)).toBe(p1);
          if (p1 !== p2 || id1 !== id2) expect(playerKey(p2, id2)).not.toBe(k1);
        },
      ),
    );
  });

  it("keys a command id by its platform: one platform's id never meets another's", () => {
    expect(commandKey('default', 'cmd-1')).toBe('cmd-1');
    expect(commandKey('casino-a', 'cmd-1')).toBe('casino-a:cmd-1');
    expect(commandKey('default', 'casino-a:cmd-1')).toBe('default:casino-a:cmd-1');
    expect(commandKeyOf('casino-a', undefined)).toBeUndefined();
    expect(commandKeyOf('casino-a', '')).toBeUndefined();
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/),
        fc.string({ minLength: 1 }),
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/),
        (p1, id, p2) => {
          expect(commandIdOfKey(commandKey(p1, id))).toBe(id);
          if (p1 !== p2) expect(commandKey(p2, id)).not.toBe(commandKey(p1, id));
        },
      ),
    );
  });
});
