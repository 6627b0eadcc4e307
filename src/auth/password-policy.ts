import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const MIN_PASSWORD_LENGTH = 12;
/** scrypt hashes anything, but a megabyte password is an attack on the CPU, not a password. */
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_USERNAME_LENGTH = 64;

export type PasswordProblem = 'too-short' | 'too-long' | 'common' | 'same-as-username';

/**
 * Passwords of people who can void rounds and read every bet: long enough, and not one of the
 * passwords every guessing list starts with (src/auth/common-passwords.txt, compared lower-case).
 */
export class PasswordPolicy {
  constructor(private readonly common: ReadonlySet<string> = loadCommonPasswords()) {}

  problem(password: string, username?: string): PasswordProblem | undefined {
    const length = [...password].length;
    if (length < MIN_PASSWORD_LENGTH) return 'too-short';
    if (length > MAX_PASSWORD_LENGTH) return 'too-long';
    const lower = password.toLowerCase();
    if (this.common.has(lower)) return 'common';
    if (username && lower === username.toLowerCase()) return 'same-as-username';
    return undefined;
  }
}

export function describePasswordProblem(problem: PasswordProblem): string {
  switch (problem) {
    case 'too-short':
      return `the password needs at least ${MIN_PASSWORD_LENGTH} characters`;
    case 'too-long':
      return `the password may have at most ${MAX_PASSWORD_LENGTH} characters`;
    case 'common':
      return 'the password is on the list of common passwords; choose another';
    case 'same-as-username':
      return 'the password may not be the username';
  }
}

/** The list sits next to the source; the compiled service (dist/src/auth) finds it by walking up. */
export function loadCommonPasswords(start = __dirname): Set<string> {
  let dir = start;
  for (;;) {
    for (const candidate of [
      join(dir, 'common-passwords.txt'),
      join(dir, 'src', 'auth', 'common-passwords.txt'),
    ]) {
      if (existsSync(candidate)) {
        const words = readFileSync(candidate, 'utf8').split('\n');
        return new Set(words.map((w) => w.trim().toLowerCase()).filter(Boolean));
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`src/auth/common-passwords.txt not found above ${start}`);
    dir = parent;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A string a person could have typed: no NUL or other C0 control, no lone UTF-16 surrogate. */
export function isTypedText(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f]/.test(value) && !LONE_SURROGATE.test(value);
}
