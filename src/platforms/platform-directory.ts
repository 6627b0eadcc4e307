/** A casino platform as the service serves it: its id, name, currencies and status. */
export interface Platform {
  id: string;
  name: string;
  currencies: string[];
  status: 'active' | 'suspended';
}

/** The platform every pre-registry setup is: `PLATFORM_API_KEYS` and the v1 Kafka topics. */
export const DEFAULT_PLATFORM_ID = 'default';

/** Why a key does not open the platform API (each its own HTTP status and code). */
export type KeyRefusal =
  | { ok: false; code: 'unknown-api-key'; message: string }
  | { ok: false; code: 'api-key-revoked'; message: string }
  | { ok: false; code: 'platform-suspended'; message: string };

/** Who a platform key is, or why it is refused. */
export type Authentication = { ok: true; platform: Platform } | KeyRefusal;

/**
 * The platforms, as the edges that serve them see them (HTTP guard, Kafka intake, relay). Answers
 * may be a few seconds old (a short cache per instance): a suspension or a revoked key takes
 * effect everywhere within that time, without a restart.
 */
export abstract class PlatformDirectory {
  /** The platform, whatever its status; undefined when there is none of that id. */
  abstract get(id: string): Promise<Platform | undefined>;
  /** The active platforms, by id. */
  abstract listActive(): Promise<Platform[]>;
  /** The platform a key belongs to, if the key is live and the platform active. */
  abstract authenticate(apiKey: string): Promise<Authentication>;
}
