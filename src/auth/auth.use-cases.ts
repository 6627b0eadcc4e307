import { Logger } from '@nestjs/common';
import { UserEntity, UserRole, USER_ROLES } from '@studio/persistence';
import { createHash, randomBytes } from 'node:crypto';
import { Clock, IdGenerator } from '../clock/clock';
import { isDatabaseUnavailable } from '../http/database-unavailable';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy, PasswordProblem } from './password-policy';
import { SignInFailuresRepository } from './sign-in-protection.repository';
import { UsersRepository } from './users.repository';

export interface AuthenticatedUser {
  id: string;
  username: string;
  displayName: string;
  role: UserRole;
}

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; user: AuthenticatedUser }
  | { ok: false; reason: 'invalid-credentials' }
  | { ok: false; reason: 'account-locked'; lockedUntil: Date };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toAuthenticated(user: UserEntity): AuthenticatedUser {
  return { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
}

/** One structured warn line per refused sign-in: who, from where, why. Never the password. */
export class SecurityLog {
  private readonly logger = new Logger('Security');

  signInRefused(username: string, address: string, reason: string): void {
    this.logger.warn({
      msg: 'sign-in refused',
      event: 'sign-in-refused',
      username,
      address,
      reason,
    });
  }
}

/**
 * Exchanges a username and password for a bearer token. Unknown user and wrong password look alike;
 * after `lockoutFailures` failures in a row the username (known or not) is locked for a while and
 * even the right password is refused.
 */
export class SignIn {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly sessionTtlMs: number,
    private readonly failures: SignInFailuresRepository,
    private readonly lockout: { lockoutFailures: number; lockoutMs: number },
    private readonly log: SecurityLog,
  ) {}

  async execute(rawUsername: string, password: string, address: string): Promise<SignInResult> {
    const username = rawUsername.trim().toLowerCase();
    const now = this.clock.now();
    const lockedUntil = await this.failures.lockedUntil(username, now);
    if (lockedUntil) {
      this.log.signInRefused(username, address, 'account-locked');
      return { ok: false, reason: 'account-locked', lockedUntil };
    }
    const user = await this.users.findByUsername(username);
    // Hash anyway when the user is unknown, so timing does not reveal which usernames exist.
    const valid = await this.hasher.verify(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !valid || user.disabledAt) {
      const reason = !user ? 'unknown-user' : !valid ? 'wrong-password' : 'user-disabled';
      this.log.signInRefused(username, address, reason);
      const locked = await this.failures.recordFailure(
        username,
        now,
        this.lockout.lockoutFailures,
        this.lockout.lockoutMs,
      );
      if (locked) this.log.signInRefused(username, address, 'account-locked-now');
      return { ok: false, reason: 'invalid-credentials' };
    }
    await this.failures.clear(username);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + this.sessionTtlMs);
    await this.users.insertSession({
      tokenHash: hashToken(token),
      userId: user.id,
      createdAt: now,
      expiresAt,
      revokedAt: null,
    });
    return { ok: true, token, expiresAt, user: toAuthenticated(user) };
  }
}

const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Resolves a bearer token to its user, or undefined when unknown, expired, revoked or disabled. */
export class AuthenticateToken {
  /** Sessions confirmed by the database, by token hash: what an outage may fall back on. */
  private readonly confirmed = new Map<string, { user: AuthenticatedUser; at: number }>();
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * During a database outage a session the database confirmed within the last
   * OUTAGE_GRACE_MS stays signed in, so dealers' and supervisors' screens of the tables this
   * instance drives keep working; any other token gets the outage's 503. Revoking needs the
   * database, so nothing is revoked meanwhile; only a revocation made on another instance after
   * this one last confirmed the session is honoured late, by at most the grace.
   */
  async execute(token: string): Promise<AuthenticatedUser | undefined> {
    const hash = hashToken(token);
    const now = this.clock.now().getTime();
    try {
      const row = await this.users.sessionUser(hash, new Date(now));
      if (!row) {
        this.confirmed.delete(hash);
        return undefined;
      }
      const user = toAuthenticated(row);
      this.remember(hash, user, now);
      return user;
    } catch (error) {
      const known = this.confirmed.get(hash);
      if (!isDatabaseUnavailable(error) || !known || now - known.at > OUTAGE_GRACE_MS) throw error;
      this.logger.debug(`Session of ${known.user.username} accepted during a database outage`);
      return known.user;
    }
  }

  private remember(hash: string, user: AuthenticatedUser, now: number): void {
    this.confirmed.delete(hash);
    this.confirmed.set(hash, { user, at: now });
    // Oldest first (Map keeps insertion order): drop what is past the grace or over the cap.
    for (const [key, entry] of this.confirmed) {
      if (now - entry.at <= OUTAGE_GRACE_MS && this.confirmed.size <= MAX_CONFIRMED) break;
      this.confirmed.delete(key);
    }
  }
}

/** How long a session confirmed by the database is trusted while the database cannot be reached. */
export const OUTAGE_GRACE_MS = 60_000;
const MAX_CONFIRMED = 10_000;

export class SignOut {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<void> {
    await this.users.revokeSession(hashToken(token), this.clock.now());
  }
}

export type CreateUserResult =
  | { ok: true; user: AuthenticatedUser }
  | { ok: false; reason: 'username-taken' | 'invalid-username' | 'invalid-role' }
  | { ok: false; reason: 'weak-password'; problem: PasswordProblem };

/**
 * Adds a user (CLI and demo seeding). The password must pass the policy (12+ characters, not a
 * common one); only the built-in demo users, whose passwords are published anyway, skip it.
 */
export class CreateUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly policy: PasswordPolicy,
  ) {}

  async execute(
    input: { username: string; displayName?: string; role: string; password: string },
    options: { demoUser?: boolean } = {},
  ): Promise<CreateUserResult> {
    const username = input.username.trim().toLowerCase();
    if (!/^[a-z0-9][a-z0-9._-]{1,63}$/.test(username))
      return { ok: false, reason: 'invalid-username' };
    if (!(USER_ROLES as readonly string[]).includes(input.role))
      return { ok: false, reason: 'invalid-role' };
    const problem = options.demoUser ? undefined : this.policy.problem(input.password, username);
    if (problem) return { ok: false, reason: 'weak-password', problem };
    if (await this.users.usernameTaken(username)) return { ok: false, reason: 'username-taken' };
    const user: UserEntity = {
      id: this.ids.newId(),
      username,
      displayName: input.displayName?.trim() || username,
      role: input.role as UserRole,
      passwordHash: await this.hasher.hash(input.password),
      createdAt: this.clock.now(),
      disabledAt: null,
    };
    if (!(await this.users.insertUser(user))) return { ok: false, reason: 'username-taken' };
    return { ok: true, user: toAuthenticated(user) };
  }
}
