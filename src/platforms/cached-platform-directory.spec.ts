import type { Clock } from '../clock/clock';
import { apiKeyHash } from './api-key';
import { CachedPlatformDirectory } from './cached-platform-directory';
import type { Platform } from './platform-directory';
import type { KeyOwner, PlatformsRepository } from './platforms.repository';

class ManualClock implements Clock {
  at = 0;
  now() {
    return new Date(this.at);
  }
}

describe('CachedPlatformDirectory', () => {
  const casino: Platform = { id: 'casino-a', name: 'A', currencies: ['EUR'], status: 'active' };
  let owner: KeyOwner | undefined;
  let lookups: number;
  const clock = new ManualClock();
  const repository = {
    keyOwner: async (hash: Buffer) => {
      lookups += 1;
      return hash.equals(apiKeyHash('psk_a')) ? owner : undefined;
    },
    get: async (id: string) =>
      id === 'default' ? { ...casino, id: 'default', status: 'suspended' as const } : undefined,
  } as unknown as PlatformsRepository;

  beforeEach(() => {
    owner = { keyId: 'k1', revokedAt: null, platform: casino };
    lookups = 0;
    clock.at = 0;
  });

  it('answers from its cache within the TTL and reads the registry again after it', async () => {
    const directory = new CachedPlatformDirectory(repository, clock, 5_000, []);
    expect(await directory.authenticate('psk_a')).toEqual({ ok: true, platform: casino });
    owner = { ...owner!, revokedAt: new Date(1) };
    clock.at = 4_999;
    expect(await directory.authenticate('psk_a')).toMatchObject({ ok: true });
    expect(lookups).toBe(1);
    clock.at = 5_000;
    expect(await directory.authenticate('psk_a')).toMatchObject({ code: 'api-key-revoked' });
    expect(lookups).toBe(2);
  });

  it('reads the registry again at once once told it changed, and keeps no answer loaded before', async () => {
    const directory = new CachedPlatformDirectory(repository, clock, 60_000, []);
    expect(await directory.authenticate('psk_a')).toMatchObject({ ok: true });
    owner = { ...owner!, revokedAt: new Date(1) };
    directory.forget();
    expect(await directory.authenticate('psk_a')).toMatchObject({ code: 'api-key-revoked' });
    // A lookup under way when the change is announced may have read the old row: not kept.
    owner = { ...owner!, revokedAt: null };
    directory.forget();
    const inFlight = directory.authenticate('psk_a');
    directory.forget();
    owner = { ...owner!, revokedAt: new Date(2) };
    expect(await inFlight).toMatchObject({ ok: true });
    expect(await directory.authenticate('psk_a')).toMatchObject({ code: 'api-key-revoked' });
  });

  it('names each refusal: unknown key, suspended platform (also the default keys)', async () => {
    const directory = new CachedPlatformDirectory(repository, clock, 0, ['env-key']);
    expect(await directory.authenticate('psk_b')).toMatchObject({ code: 'unknown-api-key' });
    owner = { ...owner!, platform: { ...casino, status: 'suspended' } };
    expect(await directory.authenticate('psk_a')).toMatchObject({ code: 'platform-suspended' });
    expect(await directory.authenticate('env-key')).toMatchObject({ code: 'platform-suspended' });
  });

  it("remembers a key's hash, never its standing: a revocation is seen by the next request", async () => {
    const directory = new CachedPlatformDirectory(repository, clock, 0, ['env-key']);
    expect(await directory.authenticate('psk_a')).toMatchObject({ ok: true });
    expect(await directory.authenticate('psk_a')).toMatchObject({ ok: true });
    owner = { ...owner!, revokedAt: new Date(1) };
    expect(await directory.authenticate('psk_a')).toMatchObject({ code: 'api-key-revoked' });
    expect(lookups).toBe(3);
    // Many other keys (the remembered hashes are bounded): the answers stay the same.
    for (let i = 0; i < 10_001; i += 1) await directory.authenticate(`psk_other-${i}`);
    expect(await directory.authenticate('psk_a')).toMatchObject({ code: 'api-key-revoked' });
    expect(await directory.authenticate('env-key')).toMatchObject({ code: 'platform-suspended' });
    expect(await directory.authenticate('psk_b')).toMatchObject({ code: 'unknown-api-key' });
  });
});
