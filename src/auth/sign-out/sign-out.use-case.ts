import { Clock } from '../../clock/clock';
import { hashToken } from '../session-token';
import type { UsersRepository } from '../users.repository';

/** Revokes the session of a bearer token (the roles guard has resolved it to a user first). */
export class SignOut {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<void> {
    await this.users.revokeSession(hashToken(token), this.clock.now());
  }
}
