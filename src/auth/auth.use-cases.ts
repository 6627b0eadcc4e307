import { Logger } from '@nestjs/common';
import { UserEntity, UserRole, UserSessionEntity, USER_ROLES } from '@studio/persistence';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import { PasswordHasher } from './password-hasher';
import { PasswordPolicy, PasswordProblem } from './password-policy';
import { SignInFailuresRepository } from './sign-in-protection.repository';

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
    private readonly dataSource: DataSource,
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
    const user = await this.dataSource.getRepository(UserEntity).findOne({ where: { username } });
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
    await this.dataSource.getRepository(UserSessionEntity).insert({
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
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<AuthenticatedUser | undefined> {
    const rows: UserEntity[] = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(UserSessionEntity, 's', 's.user_id = u.id')
      .where('s.token_hash = :hash', { hash: hashToken(token) })
      .andWhere('s.revoked_at IS NULL')
      .andWhere('s.expires_at > :now', { now: this.clock.now() })
      .andWhere('u.disabled_at IS NULL')
      .getMany();
    return rows.length === 1 ? toAuthenticated(rows[0]) : undefined;
  }
}

export class SignOut {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<void> {
    await this.dataSource
      .getRepository(UserSessionEntity)
      .update({ tokenHash: hashToken(token) }, { revokedAt: this.clock.now() });
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
    private readonly dataSource: DataSource,
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
    const repo = this.dataSource.getRepository(UserEntity);
    if (await repo.exists({ where: { username } })) return { ok: false, reason: 'username-taken' };
    const user = repo.create({
      id: this.ids.newId(),
      username,
      displayName: input.displayName?.trim() || username,
      role: input.role as UserRole,
      passwordHash: await this.hasher.hash(input.password),
      createdAt: this.clock.now(),
      disabledAt: null,
    });
    await repo.insert(user);
    return { ok: true, user: toAuthenticated(user) };
  }
}
