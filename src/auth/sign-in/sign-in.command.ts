import { isTypedText, MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH } from '../password-policy';

export interface SignInRejection {
  ok: false;
  reason: 'invalid-request';
  message: string;
}

/**
 * A sign-in: two strings a person could type, of sane length (anything else is a 400, never a
 * 500), and the client address it comes from (`request.ip`: behind a trusted proxy, the client's).
 * The username is compared trimmed and lower-case.
 */
export class SignInCommand {
  private constructor(
    readonly username: string,
    readonly password: string,
    readonly address: string,
  ) {}

  static create(body: unknown, address: string | undefined): SignInCommand | SignInRejection {
    const { username, password } = (
      body !== null && typeof body === 'object' ? body : {}
    ) as Record<string, unknown>;
    const valid = (value: unknown, max: number): value is string =>
      typeof value === 'string' && value.length > 0 && value.length <= max && isTypedText(value);
    if (!valid(username, MAX_USERNAME_LENGTH) || !valid(password, MAX_PASSWORD_LENGTH)) {
      return {
        ok: false,
        reason: 'invalid-request',
        message: `Send JSON {"username": "...", "password": "..."}: strings without control characters, at most ${MAX_USERNAME_LENGTH} and ${MAX_PASSWORD_LENGTH} characters`,
      };
    }
    return new SignInCommand(username.trim().toLowerCase(), password, address ?? 'unknown');
  }
}
