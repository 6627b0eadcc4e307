import { USER_ROLES, UserRole } from '@studio/persistence';
import type { PasswordPolicy, PasswordProblem } from '../password-policy';

export type CreateUserRejection =
  | { ok: false; reason: 'username-taken' | 'invalid-username' | 'invalid-role' }
  | { ok: false; reason: 'weak-password'; problem: PasswordProblem };

export interface CreateUserInput {
  username: string;
  displayName?: string;
  role: string;
  password: string;
}

const USERNAME = /^[a-z0-9][a-z0-9._-]{1,63}$/;

/**
 * A new user: username (compared lower-case), role, display name and a password that passes the
 * policy (12+ characters, not a common one); only the built-in demo users, whose passwords are
 * published anyway, skip it.
 */
export class CreateUserCommand {
  private constructor(
    readonly username: string,
    readonly displayName: string,
    readonly role: UserRole,
    readonly password: string,
  ) {}

  static create(
    input: CreateUserInput,
    policy: PasswordPolicy,
    options: { demoUser?: boolean } = {},
  ): CreateUserCommand | CreateUserRejection {
    const username = input.username.trim().toLowerCase();
    if (!USERNAME.test(username)) return { ok: false, reason: 'invalid-username' };
    if (!(USER_ROLES as readonly string[]).includes(input.role)) {
      return { ok: false, reason: 'invalid-role' };
    }
    const problem = options.demoUser ? undefined : policy.problem(input.password, username);
    if (problem) return { ok: false, reason: 'weak-password', problem };
    return new CreateUserCommand(
      username,
      input.displayName?.trim() || username,
      input.role as UserRole,
      input.password,
    );
  }
}
