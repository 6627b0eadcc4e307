import { createHash, randomBytes } from 'node:crypto';
import type { EnvReader } from '../config/env-reader';
import { ConfigError, StartupError } from '../common/config-error';
import { MIN_CURSOR_KEY_BYTES } from './keyset-cursor';

/** The audit part of the configuration, checked at start-up. */
export interface AuditSettings {
  /** CURSOR_SIGNING_KEY; absent: the key generated at first start and kept in the database. */
  cursorSigningKey?: Buffer;
}

export function readAuditSettings(read: EnvReader): AuditSettings {
  const key = read.optionalString('CURSOR_SIGNING_KEY');
  if (key === undefined) return {};
  if (Buffer.byteLength(key, 'utf8') < MIN_CURSOR_KEY_BYTES || /\s/.test(key)) {
    throw new ConfigError(
      `CURSOR_SIGNING_KEY must be at least ${MIN_CURSOR_KEY_BYTES} characters without spaces (for example \`openssl rand -hex 32\`); every instance needs the same one`,
    );
  }
  return { cursorSigningKey: Buffer.from(key, 'utf8') };
}

/** Secrets every instance of the service shares, kept in the database (port; src/database). */
export interface SharedSecrets {
  /** The secret stored under `name`; `candidate` is stored first when there is none yet. */
  shared(name: string, candidate: Buffer): Promise<Buffer>;
}

export const CURSOR_KEY_SECRET = 'audit-cursor-key';
/** A hash of the key the first instance signed with: the others' must match it. */
export const CURSOR_KEY_FINGERPRINT = 'audit-cursor-key-fingerprint';

function fingerprintOf(key: Buffer): Buffer {
  return createHash('sha256').update('studio audit cursor key\0').update(key).digest();
}

/**
 * The key the audit cursors are signed with: the configured one, else the one the first instance
 * generated and stored (a second instance, started at the same moment, reads the same row).
 */
export async function cursorSigningKey(
  settings: AuditSettings,
  secrets: SharedSecrets,
): Promise<Buffer> {
  const key = settings.cursorSigningKey ?? (await storedKey(secrets));
  await sameKeyAsTheOthers(key, settings, secrets);
  return key;
}

async function storedKey(secrets: SharedSecrets): Promise<Buffer> {
  const key = await secrets.shared(CURSOR_KEY_SECRET, randomBytes(MIN_CURSOR_KEY_BYTES));
  if (key.length < MIN_CURSOR_KEY_BYTES) {
    throw new StartupError(
      `The stored cursor key "${CURSOR_KEY_SECRET}" in shared_secrets has ${key.length} bytes, fewer than ${MIN_CURSOR_KEY_BYTES}: delete the row to have a new one generated, or set CURSOR_SIGNING_KEY`,
    );
  }
  return key;
}

/**
 * Every instance must sign with one key: behind a balancer, a cursor one instance signed is
 * otherwise refused (`invalid-cursor`) by the next, so an auditor's second page failed about every
 * other time. Each start compares its key's fingerprint with the one the first instance stored.
 */
async function sameKeyAsTheOthers(
  key: Buffer,
  settings: AuditSettings,
  secrets: SharedSecrets,
): Promise<void> {
  const mine = fingerprintOf(key);
  const theirs = await secrets.shared(CURSOR_KEY_FINGERPRINT, mine);
  if (theirs.equals(mine)) return;
  const which = settings.cursorSigningKey
    ? 'CURSOR_SIGNING_KEY is not the key'
    : 'CURSOR_SIGNING_KEY is not set here, unlike the key';
  throw new ConfigError(
    `${which} the studio's other instances sign audit cursors with (its fingerprint is "${CURSOR_KEY_FINGERPRINT}" in shared_secrets): give every instance the same one; to change it, stop every instance and delete that row`,
  );
}
