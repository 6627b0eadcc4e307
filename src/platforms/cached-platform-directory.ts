import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock/clock';
import { apiKeyHash } from './api-key';
import {
  Authentication,
  DEFAULT_PLATFORM_ID,
  Platform,
  PlatformDirectory,
} from './platform-directory';
import type { KeyOwner, PlatformsRepository } from './platforms.repository';

/** Entries kept at most: unknown keys are cached too, so a flood of them cannot grow it freely. */
const MAX_ENTRIES = 10_000;

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  /** Bumped by clear(): a load begun before it is not kept (it may predate the change). */
  private generation = 0;
  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation !== this.generation) return value;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    if (this.ttlMs > 0) this.entries.set(key, { value, until: now + this.ttlMs });
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.generation += 1;
  }
}

/** A key's hash (the registry's lookup), and whether it is one of `PLATFORM_API_KEYS`. */
interface KeyDigest {
  hex: string;
  isDefaultKey: boolean;
}

/**
 * The platform directory over the registry, with a short cache per instance (`ttlMs`): a request
 * costs no query while its key was seen within that time. A change of the registry is announced
 * (NOTIFY) and forgets the cache at once (`forget`); an instance that missed the notice (its
 * listening connection down, the embedded database) refuses a revoked key or a suspended platform
 * at most `ttlMs` later. The `PLATFORM_API_KEYS` keys are the `default` platform's, compared in memory.
 */
export class CachedPlatformDirectory extends PlatformDirectory {
  private readonly keyOwners: TtlCache<KeyOwner | undefined>;
  private readonly platforms: TtlCache<Platform | undefined>;
  private readonly active: TtlCache<Platform[]>;
  private readonly defaultKeys: Buffer[];
  /**
   * Each key's digest, by the key as sent: what never changes for a key (its hash, whether it is
   * a configured one), so a platform's requests cost no SHA-256 each. What may change (revoked,
   * suspended) is still asked of `keyOwners` and `platforms`, within `ttlMs` as before. Bounded
   * as the TTL caches are (unknown keys are kept too).
   */
  private readonly digests = new Map<string, KeyDigest>();

  constructor(
    private readonly repository: PlatformsRepository,
    clock: Clock,
    ttlMs: number,
    defaultKeys: readonly string[],
  ) {
    super();
    this.keyOwners = new TtlCache(ttlMs, clock);
    this.platforms = new TtlCache(ttlMs, clock);
    this.active = new TtlCache(ttlMs, clock);
    this.defaultKeys = defaultKeys.map(apiKeyHash);
  }

  get(id: string): Promise<Platform | undefined> {
    return this.platforms.get(id, () => this.repository.get(id));
  }

  /**
   * The registry changed (a key added or revoked, a platform added, suspended or resumed: its
   * NOTIFY, PLATFORMS_CHANGED_CHANNEL): what was cached is read again at the next request, so the
   * change holds at once on every instance that hears it, and within `ttlMs` on one that does not.
   */
  forget(): void {
    this.keyOwners.clear();
    this.platforms.clear();
    this.active.clear();
  }

  listActive(): Promise<Platform[]> {
    return this.active.get('', () => this.repository.list(true));
  }

  async authenticate(apiKey: string): Promise<Authentication> {
    const { hex, isDefaultKey } = this.digestOf(apiKey);
    if (isDefaultKey) return admitted(await this.get(DEFAULT_PLATFORM_ID));
    const owner = await this.keyOwners.get(hex, () =>
      this.repository.keyOwner(Buffer.from(hex, 'hex')),
    );
    if (!owner) return admitted(undefined);
    if (owner.revokedAt) {
      return { ok: false, code: 'api-key-revoked', message: `Key ${owner.keyId} was revoked` };
    }
    return admitted(owner.platform);
  }

  private digestOf(apiKey: string): KeyDigest {
    let digest = this.digests.get(apiKey);
    if (digest) return digest;
    const hash = apiKeyHash(apiKey);
    // Every configured key is compared (in constant time each), so timing tells no prefix.
    const isDefaultKey = this.defaultKeys.reduce(
      (hit, key) => timingSafeEqual(key, hash) || hit,
      false,
    );
    digest = { hex: hash.toString('hex'), isDefaultKey };
    if (this.digests.size >= MAX_ENTRIES) this.digests.clear();
    this.digests.set(apiKey, digest);
    return digest;
  }
}

function admitted(platform: Platform | undefined): Authentication {
  if (!platform) {
    return { ok: false, code: 'unknown-api-key', message: 'No platform has this key' };
  }
  if (platform.status !== 'active') {
    return {
      ok: false,
      code: 'platform-suspended',
      message: `Platform ${platform.id} is suspended`,
    };
  }
  return { ok: true, platform };
}
