import { Logger } from '@nestjs/common';
import { Clock } from '../../clock/clock';
import { isDatabaseUnavailable } from '../../common/database-unavailable';
import { AuthenticatedUser, toAuthenticated } from '../authenticated-user';
import { hashToken } from '../session-token';
import type { UsersRepository } from '../users.repository';

/** How long a session confirmed by the database is trusted while the database cannot be reached. */
export const OUTAGE_GRACE_MS = 60_000;
const MAX_CONFIRMED = 10_000;

/**
 * Resolves a bearer token (already checked for its form by `bearerToken`) to its user, or
 * undefined when unknown, expired, revoked or disabled.
 */
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

  /**
   * A signed-out session is never accepted again here, outage or not: forgotten before the
   * database revokes it, so a sign-out that meets an outage (and is answered 503) still ends it on
   * this instance.
   */
  forget(token: string): void {
    this.confirmed.delete(hashToken(token));
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
