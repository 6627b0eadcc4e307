import { Clock } from '../../clock/clock';
import { AuthenticatedUser, toAuthenticated } from '../authenticated-user';
import type { PasswordHasher } from '../password-hasher';
import type { SecurityLog } from '../security-log';
import { hashToken, newSessionToken } from '../session-token';
import type { SignInAttemptsRepository } from '../sign-in-protection.repository';
import type { UsersRepository } from '../users.repository';
import type { SignInCommand } from './sign-in.command';
import { Admission, admit, SignInPolicy, succeeded } from './sign-in-policy';

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; user: AuthenticatedUser }
  | { ok: false; reason: 'invalid-credentials' }
  /** This address is locked out of this account (other addresses are not). */
  | { ok: false; reason: 'account-locked'; retryAt: Date }
  /** This address must wait (growing delay), or the account is slowed past its ceiling. */
  | { ok: false; reason: 'too-many-attempts'; retryAt: Date; scope: 'address' | 'account' };

const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/**
 * Exchanges a username and password for a bearer token. Unknown user and wrong password look
 * alike, and unknown usernames are counted like known ones, so no answer tells which exist. Each
 * attempt is first admitted by the sign-in policy (sign-in-policy.ts), which keeps out the
 * addresses that fail, not the account.
 */
export class SignIn {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly sessionTtlMs: number,
    private readonly attempts: SignInAttemptsRepository,
    private readonly policy: SignInPolicy,
    private readonly log: SecurityLog,
  ) {}

  async execute(command: SignInCommand): Promise<SignInResult> {
    const { username, password, address } = command;
    const now = this.clock.now();
    const admission = await this.attempts.update(username, address, now, (pair, account) => {
      const decided = admit(pair, account, now.getTime(), this.policy);
      return { result: decided, ...(decided.admitted ? { store: decided } : {}) };
    });
    if (!admission.admitted) return this.refused(username, address, admission);
    const user = await this.users.findByUsername(username);
    // Hash anyway when the user is unknown, so timing does not reveal which usernames exist.
    const valid = await this.hasher.verify(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !valid || user.disabledAt) {
      this.log.signInRefused(
        username,
        address,
        !user ? 'unknown-user' : !valid ? 'wrong-password' : 'user-disabled',
      );
      if (admission.locksOnFailure) this.log.signInRefused(username, address, 'locked-out-now');
      if (admission.slowsOnFailure) {
        this.log.signInRefused(username, address, 'account-ceiling-reached');
      }
      return { ok: false, reason: 'invalid-credentials' };
    }
    await this.attempts.update(username, address, now, (pair, account) => ({
      result: undefined,
      store: succeeded(pair, account, now.getTime(), this.policy),
    }));
    const token = newSessionToken();
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

  private refused(
    username: string,
    address: string,
    refusal: Extract<Admission, { admitted: false }>,
  ): SignInResult {
    this.log.signInRefused(username, address, refusal.reason);
    const retryAt = new Date(refusal.retryAt);
    return refusal.reason === 'locked-out'
      ? { ok: false, reason: 'account-locked', retryAt }
      : {
          ok: false,
          reason: 'too-many-attempts',
          retryAt,
          scope: refusal.reason === 'delayed' ? 'address' : 'account',
        };
  }
}
