import { withPlatformPlayers } from './player-names';

describe('withPlatformPlayers', () => {
  it('names another platform’s player by platform and bare playerId, at any depth', () => {
    expect(
      withPlatformPlayers({
        playerId: 'casino-a:alice',
        bets: [{ playerId: 'alice', main: 1 }, { playerId: 'casino-b:x:y' }],
      }),
    ).toEqual({
      playerId: 'alice',
      platformId: 'casino-a',
      bets: [
        { playerId: 'alice', main: 1 },
        { playerId: 'x:y', platformId: 'casino-b' },
      ],
    });
    expect(withPlatformPlayers({ playerId: 'default:a:b' })).toEqual({
      playerId: 'a:b',
      platformId: 'default',
    });
  });

  it('returns the very payload when it names no other platform’s player', () => {
    const payload = { bets: [{ playerId: 'alice' }], hands: [{ cards: ['AS'] }] };
    expect(withPlatformPlayers(payload)).toBe(payload);
  });
});
