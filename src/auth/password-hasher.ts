import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

type ScryptFn = (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const scrypt: ScryptFn = (password, salt, keylen, options) =>
  new Promise((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

const KEY_LENGTH = 32;

/**
 * scrypt password hashes in a self-describing format `scrypt$N$r$p$salt$hash` (base64), so the cost
 * can be raised later without invalidating stored hashes.
 */
export class PasswordHasher {
  constructor(private readonly cost = { N: 16384, r: 8, p: 1 }) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const { N, r, p } = this.cost;
    const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 64 * 1024 * 1024 });
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, r, p, saltText, keyText] = parts;
    const expected = Buffer.from(keyText, 'base64');
    const key = await scrypt(password, Buffer.from(saltText, 'base64'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 64 * 1024 * 1024,
    });
    return key.length === expected.length && timingSafeEqual(key, expected);
  }
}
