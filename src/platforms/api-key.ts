import { createHash, randomBytes } from 'node:crypto';

/** What a new key starts with, so a leaked one is recognisable in logs and secret scanners. */
const KEY_PREFIX = 'psk_';

/** A new platform key: 32 random bytes (256 bits), shown to the operator once, never stored. */
export function newApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The stored form of a key. SHA-256 without salt or stretching is enough here, unlike for
 * passwords: a generated key has 256 bits of entropy, so a stolen hash cannot be reversed by
 * guessing, and an unsalted hash lets the key be found by one unique-index lookup per request.
 * (`PLATFORM_API_KEYS` keys are chosen by operators; they are compared in memory, never stored.)
 */
export function apiKeyHash(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
