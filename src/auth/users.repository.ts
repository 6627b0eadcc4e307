import { UserEntity, UserSessionEntity } from '@studio/persistence';
import { DataSource } from 'typeorm';

/** Users and their sign-in sessions (a session is stored by its token's hash, never the token). */
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOne({ where: { username } });
  }

  /** Every user, by username. */
  all(): Promise<UserEntity[]> {
    return this.dataSource.getRepository(UserEntity).find({ order: { username: 'ASC' } });
  }

  usernameTaken(username: string): Promise<boolean> {
    return this.dataSource.getRepository(UserEntity).exists({ where: { username } });
  }

  /**
   * Adds the user unless the username is taken, also by an insert running at the same time (two
   * instances seeding the demo users, an operator clicking twice): false then, not an error.
   */
  async insertUser(user: UserEntity): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values(user)
      .orIgnore()
      .returning('id')
      .execute();
    return (result.raw as unknown[]).length === 1;
  }

  async insertSession(session: UserSessionEntity): Promise<void> {
    await this.dataSource.getRepository(UserSessionEntity).insert(session);
  }

  /** The user of a live session: not revoked, not expired at `now`, user not disabled. */
  async sessionUser(tokenHash: string, now: Date): Promise<UserEntity | undefined> {
    const rows = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoin(UserSessionEntity, 's', 's.user_id = u.id')
      .where('s.token_hash = :hash', { hash: tokenHash })
      .andWhere('s.revoked_at IS NULL')
      .andWhere('s.expires_at > :now', { now })
      .andWhere('u.disabled_at IS NULL')
      .getMany();
    return rows.length === 1 ? rows[0] : undefined;
  }

  async revokeSession(tokenHash: string, at: Date): Promise<void> {
    await this.dataSource.getRepository(UserSessionEntity).update({ tokenHash }, { revokedAt: at });
  }
}
