import { UserEntity, UserRole, UserSessionEntity, USER_ROLES } from '@studio/persistence';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import { PasswordHasher } from './password-hasher';

export interface AuthenticatedUser {
  id: string;
  username: string;
  displayName: string;
  role: UserRole;
}

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; user: AuthenticatedUser }
  | { ok: false; reason: 'invalid-credentials' };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toAuthenticated(user: UserEntity): AuthenticatedUser {
  return { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
}

/** Exchanges a username and password for a bearer token. Unknown user and wrong password look alike. */
export class SignIn {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly sessionTtlMs: number,
  ) {}

  async execute(username: string, password: string): Promise<SignInResult> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .findOne({ where: { username: username.trim().toLowerCase() } });
    // Hash anyway when the user is unknown, so timing does not reveal which usernames exist.
    const valid = await this.hasher.verify(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !valid || user.disabledAt) return { ok: false, reason: 'invalid-credentials' };
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
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
  | { ok: false; reason: 'username-taken' | 'invalid-username' | 'invalid-role' | 'weak-password' };

/** Adds a user (CLI and demo seeding); the password must be at least 8 characters. */
export class CreateUser {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: {
    username: string;
    displayName?: string;
    role: string;
    password: string;
  }): Promise<CreateUserResult> {
    const username = input.username.trim().toLowerCase();
    if (!/^[a-z0-9][a-z0-9._-]{1,63}$/.test(username))
      return { ok: false, reason: 'invalid-username' };
    if (!(USER_ROLES as readonly string[]).includes(input.role))
      return { ok: false, reason: 'invalid-role' };
    if (input.password.length < 8) return { ok: false, reason: 'weak-password' };
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
