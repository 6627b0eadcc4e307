import { ConfigError, StartupError } from '../common/config-error';
import { EnvReader } from '../config/env-reader';
import {
  CURSOR_KEY_FINGERPRINT,
  CURSOR_KEY_SECRET,
  cursorSigningKey,
  readAuditSettings,
  SharedSecrets,
} from './cursor-signing-key';

/** Secrets as the database keeps them: the first value stored under a name wins. */
function store(
  initial: Record<string, Buffer> = {},
): SharedSecrets & { rows: Map<string, Buffer> } {
  const rows = new Map(Object.entries(initial));
  return {
    rows,
    shared: async (name, candidate) => {
      if (!rows.has(name)) rows.set(name, candidate);
      return rows.get(name)!;
    },
  };
}

describe('the cursor signing key', () => {
  const configured = (key: string) => readAuditSettings(new EnvReader({ CURSOR_SIGNING_KEY: key }));

  it('takes CURSOR_SIGNING_KEY when it is set, storing only its fingerprint', async () => {
    const secrets = store();
    expect(await cursorSigningKey(configured('k'.repeat(40)), secrets)).toEqual(
      Buffer.from('k'.repeat(40)),
    );
    expect([...secrets.rows.keys()]).toEqual([CURSOR_KEY_FINGERPRINT]);
    expect(secrets.rows.get(CURSOR_KEY_FINGERPRINT)!.includes(Buffer.from('k'.repeat(40)))).toBe(
      false,
    );
  });

  it('stops an instance whose key is not the one the others sign with, naming the variable', async () => {
    const secrets = store();
    await cursorSigningKey(configured('k'.repeat(40)), secrets);
    expect(await cursorSigningKey(configured('k'.repeat(40)), secrets)).toHaveLength(40);
    await expect(cursorSigningKey(configured('j'.repeat(40)), secrets)).rejects.toThrow(
      /^CURSOR_SIGNING_KEY is not the key the studio's other instances sign audit cursors with/,
    );
    // Set on one instance, not on the other (which would take the generated one).
    await expect(cursorSigningKey({}, secrets)).rejects.toThrow(ConfigError);
    const generated = store();
    await cursorSigningKey({}, generated);
    await expect(cursorSigningKey(configured('k'.repeat(40)), generated)).rejects.toThrow(
      ConfigError,
    );
  });

  it('refuses a short key or one with spaces at start-up, naming the variable', () => {
    for (const key of ['too-short', `${'k'.repeat(20)} ${'k'.repeat(20)}`]) {
      expect(() => readAuditSettings(new EnvReader({ CURSOR_SIGNING_KEY: key }))).toThrow(
        new ConfigError(
          'CURSOR_SIGNING_KEY must be at least 32 characters without spaces (for example `openssl rand -hex 32`); every instance needs the same one',
        ),
      );
    }
  });

  it('generates a random key at first start and reads the stored one afterwards', async () => {
    const secrets = store();
    const first = await cursorSigningKey({}, secrets);
    expect(first).toHaveLength(32);
    expect(secrets.rows.get(CURSOR_KEY_SECRET)).toEqual(first);
    expect(await cursorSigningKey({}, secrets)).toEqual(first);
    expect(await cursorSigningKey({}, store())).not.toEqual(first);
  });

  it('stops the start-up when the stored key is too short', async () => {
    const secrets = store({ [CURSOR_KEY_SECRET]: Buffer.alloc(8) });
    await expect(cursorSigningKey({}, secrets)).rejects.toThrow(StartupError);
  });
});
