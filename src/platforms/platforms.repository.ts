import type { DataSource } from 'typeorm';
import type { Platform } from './platform-directory';

interface PlatformRow {
  id: string;
  name: string;
  currencies: string[];
  status: 'active' | 'suspended';
}

/** A platform's key as an operator lists it (never the key itself, which is not stored). */
export interface ApiKeyRecord {
  id: string;
  platformId: string;
  label: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A stored key found by its hash, with its platform. */
export interface KeyOwner {
  keyId: string;
  revokedAt: Date | null;
  platform: Platform;
}

/**
 * The channel on which a change of the registry is announced (NOTIFY, sent at its commit):
 * every instance's directory forgets what it cached, so a revoked key or a suspended platform is
 * refused at once, not after the cache's time (CachedPlatformDirectory.forget).
 */
export const PLATFORMS_CHANGED_CHANNEL = 'studio_platforms_changed';

/** Selected from the changed rows (`changed`, each with the platform's `id`): announces them. */
const ANNOUNCED = `id, pg_notify('${PLATFORMS_CHANGED_CHANNEL}', id)`;

const platformOf = (r: PlatformRow): Platform => ({
  id: r.id,
  name: r.name,
  currencies: r.currencies,
  status: r.status,
});

/** The platforms registry and the platforms' API keys (stored as hashes). */
export class PlatformsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds a platform; false when the id is taken. */
  async add(platform: Omit<Platform, 'status'>, now: Date): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `WITH changed AS (
         INSERT INTO platforms (id, name, currencies, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'active', $4, $4) ON CONFLICT (id) DO NOTHING RETURNING id)
       SELECT ${ANNOUNCED} FROM changed`,
      [platform.id, platform.name, platform.currencies, now],
    )) as unknown[];
    return rows.length === 1;
  }

  /**
   * The `default` platform exists and takes at least these currencies (the configured tables'):
   * a single-platform setup keeps working as it did. Instances starting together may both run it.
   */
  async ensureDefault(id: string, currencies: string[], now: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO platforms (id, name, currencies, status, created_at, updated_at)
       VALUES ($1, 'Default platform', $2, 'active', $3, $3)
       ON CONFLICT (id) DO UPDATE
         SET currencies = ARRAY(SELECT DISTINCT c FROM unnest(platforms.currencies || $2::text[]) c ORDER BY c),
             updated_at = $3
         WHERE NOT platforms.currencies @> $2::text[]`,
      [id, currencies, now],
    );
  }

  /** Suspends or resumes a platform; false when there is none of that id. */
  async setStatus(id: string, status: Platform['status'], now: Date): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `WITH changed AS (
         UPDATE platforms SET status = $2, updated_at = $3 WHERE id = $1 RETURNING id)
       SELECT ${ANNOUNCED} FROM changed`,
      [id, status, now],
    )) as unknown[];
    return rows.length === 1;
  }

  async get(id: string): Promise<Platform | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT id, name, currencies, status FROM platforms WHERE id = $1`,
      [id],
    )) as PlatformRow[];
    return rows.length === 1 ? platformOf(rows[0]) : undefined;
  }

  async list(onlyActive = false): Promise<Platform[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, name, currencies, status FROM platforms
        WHERE $1::boolean = false OR status = 'active' ORDER BY id`,
      [onlyActive],
    )) as PlatformRow[];
    return rows.map(platformOf);
  }

  async addKey(
    key: { id: string; platformId: string; hash: Buffer; label: string },
    now: Date,
  ): Promise<void> {
    await this.dataSource.query(
      `WITH changed AS (
         INSERT INTO platform_api_keys (id, platform_id, key_hash, label, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING platform_id AS id)
       SELECT ${ANNOUNCED} FROM changed`,
      [key.id, key.platformId, key.hash, key.label, now],
    );
  }

  /** Revokes a platform's key (once: the first revocation time stays); false when none. */
  async revokeKey(platformId: string, keyId: string, now: Date): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `WITH changed AS (
         UPDATE platform_api_keys SET revoked_at = COALESCE(revoked_at, $3)
          WHERE platform_id = $1 AND id = $2 RETURNING platform_id AS id)
       SELECT ${ANNOUNCED} FROM changed`,
      [platformId, keyId, now],
    )) as unknown[];
    return rows.length === 1;
  }

  async keys(platformId: string): Promise<ApiKeyRecord[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, platform_id, label, created_at, revoked_at FROM platform_api_keys
        WHERE platform_id = $1 ORDER BY created_at, id`,
      [platformId],
    )) as {
      id: string;
      platform_id: string;
      label: string;
      created_at: Date;
      revoked_at: Date | null;
    }[];
    return rows.map((r) => ({
      id: r.id,
      platformId: r.platform_id,
      label: r.label,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    }));
  }

  /** The key of this hash and its platform (one unique-index lookup). */
  async keyOwner(hash: Buffer): Promise<KeyOwner | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT k.id AS key_id, k.revoked_at, p.id, p.name, p.currencies, p.status
         FROM platform_api_keys k JOIN platforms p ON p.id = k.platform_id
        WHERE k.key_hash = $1`,
      [hash],
    )) as (PlatformRow & { key_id: string; revoked_at: Date | null })[];
    if (rows.length !== 1) return undefined;
    const [r] = rows;
    return { keyId: r.key_id, revokedAt: r.revoked_at, platform: platformOf(r) };
  }
}
