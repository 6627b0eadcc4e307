import type { UserEntity } from '@studio/persistence';
import { Clock, IdGenerator } from '../../clock/clock';
import { AuthenticatedUser, toAuthenticated } from '../authenticated-user';
import type { PasswordHasher } from '../password-hasher';
import type { PasswordPolicy } from '../password-policy';
import type { UsersRepository } from '../users.repository';
import { CreateUserCommand, CreateUserInput, CreateUserRejection } from './create-user.command';

export type CreateUserResult = { ok: true; user: AuthenticatedUser } | CreateUserRejection;

/**
 * Adds a user (CLI `npm run user:add` and demo seeding): the input becomes a CreateUserCommand,
 * which refuses a bad username, role or password, then the user is stored unless the username is
 * taken (also by an insert running at the same time).
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
    input: CreateUserInput,
    options: { demoUser?: boolean } = {},
  ): Promise<CreateUserResult> {
    const command = CreateUserCommand.create(input, this.policy, options);
    if (!(command instanceof CreateUserCommand)) return command;
    if (await this.users.usernameTaken(command.username)) {
      return { ok: false, reason: 'username-taken' };
    }
    const user: UserEntity = {
      id: this.ids.newId(),
      username: command.username,
      displayName: command.displayName,
      role: command.role,
      passwordHash: await this.hasher.hash(command.password),
      createdAt: this.clock.now(),
      disabledAt: null,
    };
    if (!(await this.users.insertUser(user))) return { ok: false, reason: 'username-taken' };
    return { ok: true, user: toAuthenticated(user) };
  }
}
