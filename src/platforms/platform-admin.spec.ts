import type { Clock, IdGenerator } from '../clock/clock';
import { PlatformAdminError, runPlatformAdmin } from './platform-admin';
import type { PlatformsRepository } from './platforms.repository';

describe('npm run platform', () => {
  const added: unknown[] = [];
  const repository = {
    add: async (platform: unknown) => (added.push(platform), true),
  } as unknown as PlatformsRepository;
  const deps = {
    repository,
    clock: { now: () => new Date('2026-12-05T00:00:00Z') } as Clock,
    ids: { newId: () => 'id-1' } as IdGenerator,
  };

  it('refuses the reserved id "bot" saying it is reserved, not that it breaks the id pattern it matches', async () => {
    const answer = runPlatformAdmin(['add', 'bot', 'EUR', 'Bots'], deps);
    await expect(answer).rejects.toBeInstanceOf(PlatformAdminError);
    await expect(answer).rejects.toThrow('platform id "bot" is reserved');
    expect(added).toEqual([]);
  });

  it('still refuses an id off the pattern by the pattern', async () => {
    await expect(runPlatformAdmin(['add', 'Casino_A', 'EUR'], deps)).rejects.toThrow(
      'platform id must match',
    );
  });
});
