import { Clock } from '../../clock/clock';
import type { AuthenticateToken } from '../authenticate-token/authenticate-token.use-case';
import { hashToken } from '../session-token';
import type { UsersRepository } from '../users.repository';

/** Revokes the session of a bearer token (the roles guard has resolved it to a user first). */
export class SignOut {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    /** Where this instance keeps sessions it may accept during an outage. */
    private readonly sessions: Pick<AuthenticateToken, 'forget'>,
  ) {}

  async execute(token: string): Promise<void> {
    this.sessions.forget(token);
    await this.users.revokeSession(hashToken(token), this.clock.now());
  }
}
